import { describe, expect, it } from 'vitest';
import { asLanguage, chooseInitialLanguage, chosenLanguage, forgetChosenLanguage, languageAfterLogin, recordChosenLanguage } from '../src/lib/language.ts';

describe('chooseInitialLanguage', () => {
  it('prefers the remembered choice', () => {
    expect(chooseInitialLanguage('fr', ['en-US'])).toBe('fr');
    expect(chooseInitialLanguage('en', ['fr-FR'])).toBe('en');
  });
  it('follows the browser languages in order', () => {
    expect(chooseInitialLanguage(null, ['fr-CA', 'en'])).toBe('fr');
    expect(chooseInitialLanguage(null, ['de-DE', 'fr'])).toBe('fr');
    expect(chooseInitialLanguage(undefined, ['en-GB'])).toBe('en');
  });
  it('falls back to English', () => {
    expect(chooseInitialLanguage(null, ['de', 'es'])).toBe('en');
    expect(chooseInitialLanguage('xx', [])).toBe('en');
  });
});

describe('languageAfterLogin', () => {
  it("applies the account's language once its user chose it", () => {
    expect(languageAfterLogin('en', { langue: 'fr', langue_chosen: true })).toBe('fr');
    expect(languageAfterLogin('fr', { langue: 'en', langue_chosen: true })).toBe('en');
  });
  it('never lets a default (or an admin’s pick) override the browser', () => {
    expect(languageAfterLogin('fr', { langue: 'en', langue_chosen: false })).toBe('fr');
    expect(languageAfterLogin('en', { langue: 'fr', langue_chosen: false })).toBe('en');
  });
  it('keeps the current language when the account has none', () => {
    expect(languageAfterLogin('fr', undefined)).toBe('fr');
    expect(languageAfterLogin('fr', { langue: 'de', langue_chosen: true })).toBe('fr');
  });
});

describe('asLanguage', () => {
  it('normalises tags', () => {
    expect(asLanguage('FR_be')).toBe('fr');
    expect(asLanguage('en-US')).toBe('en');
    expect(asLanguage('')).toBeUndefined();
  });
});

describe('the language chosen before login', () => {
  function memoryStorage() {
    const items = new Map<string, string>();
    return {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
      removeItem: (k: string) => void items.delete(k),
    };
  }
  it('is remembered until the login or the logout forgets it', () => {
    const storage = memoryStorage();
    expect(chosenLanguage(storage)).toBeUndefined();
    recordChosenLanguage('fr', storage);
    expect(chosenLanguage(storage)).toBe('fr');
    recordChosenLanguage('en', storage);
    expect(chosenLanguage(storage)).toBe('en');
    forgetChosenLanguage(storage);
    expect(chosenLanguage(storage)).toBeUndefined();
  });
  it('survives a storage that refuses (private mode)', () => {
    const refusing = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); }, removeItem: () => { throw new Error('denied'); } };
    expect(() => recordChosenLanguage('fr', refusing)).not.toThrow();
    expect(chosenLanguage(refusing)).toBeUndefined();
    expect(() => forgetChosenLanguage(refusing)).not.toThrow();
  });
});
