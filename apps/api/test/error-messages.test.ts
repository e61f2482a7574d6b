import { describe, expect, it } from 'vitest';
import { ERROR_CODE_LIST, LEDES_MAX_FILES, LOGIN_LOCKOUT_MINUTES, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@portal/contracts';
import { resources } from '@portal/i18n';
import { ERROR_MESSAGE_PARAMS, FIELD_MESSAGE_PARAMS, envelope } from '../src/http/errors.ts';

describe('error messages', () => {
  it('every placeholder of an error message is filled in, in both languages', () => {
    for (const locale of ['en', 'fr'] as const) {
      for (const code of ERROR_CODE_LIST) {
        // A message with a count is i18next's plural forms (`too_many_files_one`, `_other`…, decision 153): every form counts.
        const messages = resources[locale].errors as Record<string, string | undefined>;
        const forms = [code, `${code}_one`, `${code}_many`, `${code}_other`].map((key) => messages[key]).filter((text) => text !== undefined);
        expect(forms.length, `${locale}:${code}`).toBeGreaterThan(0);
        const wanted = [...new Set(forms.flatMap((source) => [...source.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1])))].sort();
        expect([...Object.keys(ERROR_MESSAGE_PARAMS[code] ?? {}), ...(FIELD_MESSAGE_PARAMS[code] ?? [])].sort(), `${locale}:${code}`).toEqual(wanted);
        expect(envelope(code, locale, undefined, undefined, { field: 'reference_client', max: 200 }).message, `${locale}:${code}`).not.toMatch(/\{\{|\}\}/);
      }
    }
  });

  it('the limits a message states are the ones the rules apply', () => {
    expect(envelope('password_too_short', 'en').message).toBe(`The password must contain at least ${PASSWORD_MIN_LENGTH} characters.`);
    expect(envelope('password_too_long', 'fr').message).toBe(`Le mot de passe doit contenir au plus ${PASSWORD_MAX_LENGTH} caractères.`);
    expect(envelope('too_many_attempts', 'en').message).toBe(`Too many attempts, please try again in ${LOGIN_LOCKOUT_MINUTES} minutes`);
    expect(envelope('too_many_files', 'en').message).toBe(`At most ${LEDES_MAX_FILES} files can be checked at once.`);
  });

  it('a length or formula refusal names the field in the caller’s language (issue 25 §3)', () => {
    expect(envelope('text_too_long', 'en', undefined, undefined, { field: 'reference_client', max: 200 }).message).toBe('Client reference is too long: at most 200 characters.');
    expect(envelope('text_too_long', 'fr', undefined, undefined, { field: 'ReferenceClient', max: 200 }).message).toBe('Le champ «\u00a0Référence client\u00a0» est trop long\u00a0: 200 caractères au plus.');
    expect(envelope('formula_not_allowed', 'en', undefined, undefined, { field: 'noDepot' }).message).toBe('Application number cannot start with =, +, - or @.');
    // A field without a label is "this field".
    expect(envelope('formula_not_allowed', 'fr', undefined, undefined, { field: 'patents.0.other' }).message).toBe('Le champ «\u00a0Ce champ\u00a0» ne peut pas commencer par =, +, - ou @.');
  });
});
