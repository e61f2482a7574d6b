import { describe, expect, it } from 'vitest';
import { MAX_KEY_LENGTH, generateKey, isValidKey, slugify } from '../src/index.ts';
import { TRAVERSAL_CORPUS } from './contract.ts';

describe('isValidKey', () => {
  it('accepts generated-style keys', () => {
    expect(isValidKey('ledes/2026/11/0b6f1c1e-8d1a-4d7e-9f55-3c2a1e0f9b11/invoice.txt')).toBe(true);
    expect(isValidKey('a')).toBe(true);
    expect(isValidKey('A.b_c-d/e..f')).toBe(true); // '..' inside a segment is only a name
    expect(isValidKey('x'.repeat(MAX_KEY_LENGTH))).toBe(true);
  });

  it.each(TRAVERSAL_CORPUS.map((key) => [JSON.stringify(key).slice(0, 40), key]))('rejects %s', (_label, key) => {
    expect(isValidKey(key)).toBe(false);
  });

  it('rejects keys over 512 characters, spaces and non-ASCII', () => {
    expect(isValidKey('x'.repeat(MAX_KEY_LENGTH + 1))).toBe(false);
    expect(isValidKey('a b')).toBe(false);
    expect(isValidKey('été')).toBe(false);
  });
});

describe('generateKey', () => {
  it('builds area/yyyy/mm/uuid/slug in UTC', () => {
    const key = generateKey('annuities', 'Relevé Annuités (Q4).XLSX', new Date('2026-01-31T23:30:00-05:00'));
    expect(key).toMatch(/^annuities\/2026\/02\/[0-9a-f-]{36}\/releve-annuites-q4-.xlsx$/);
    expect(isValidKey(key)).toBe(true);
  });

  it('is unique per call', () => {
    expect(generateKey('ledes', 'a.txt')).not.toBe(generateKey('ledes', 'a.txt'));
  });

  it('refuses an invalid area', () => {
    expect(() => generateKey('../etc', 'a.txt')).toThrow('Invalid storage key');
  });
});

describe('slugify', () => {
  it.each([
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\boot.ini', 'boot.ini'],
    ['.htaccess', 'htaccess'],
    ['a..b...c', 'a.b.c'],
    ['％２ｅ．．／', '2e'],
    ['<script>', 'script'],
    ['', 'file'],
    ['...', 'file'],
    ['a\u0000b.txt', 'a-b.txt'],
  ])('%j → %j', (input, expected) => {
    expect(slugify(input)).toBe(expected);
  });

  it('caps the slug at 100 characters and keeps the extension', () => {
    const slug = slugify(`${'n'.repeat(300)}.xlsx`);
    expect(slug).toHaveLength(100);
    expect(slug.endsWith('.xlsx')).toBe(true);
  });
});
