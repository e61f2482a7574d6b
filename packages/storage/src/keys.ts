import { randomUUID } from 'node:crypto';
import { InvalidKeyError } from './errors.ts';

export const MAX_KEY_LENGTH = 512;
const MAX_SLUG_LENGTH = 100;

const SEGMENT = /^[A-Za-z0-9._-]+$/;

/**
 * Strict allow-list for object keys. Anything outside it is refused rather than normalised, so
 * encoded (`%2e%2e%2f`), full-width (`．．／`), backslash or NUL tricks never reach a driver.
 */
export function isValidKey(key: string): boolean {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) return false;
  return key.split('/').every((segment) => SEGMENT.test(segment) && segment !== '.' && segment !== '..');
}

export function assertValidKey(key: string): void {
  if (!isValidKey(key)) throw new InvalidKeyError();
}

/** A listing prefix or resume point: empty, or the start of a valid key (e.g. `ledes/`, `ledes/orig`). */
export function assertValidPrefix(prefix: string): void {
  // Some valid key starts with it when it is one, or is one once extended by a character (`ledes/`).
  if (prefix !== '' && !isValidKey(prefix) && !isValidKey(`${prefix}x`)) throw new InvalidKeyError();
}

/**
 * Server-generated key: `${area}/${yyyy}/${mm}/${uuid}/${slug}` (UTC). The uuid makes it unique and
 * unguessable; the slug only keeps the original name recognisable when browsing the bucket.
 */
export function generateKey(area: string, originalName: string, now: Date = new Date()): string {
  const yyyy = String(now.getUTCFullYear()).padStart(4, '0');
  const mm = String(now.getUTCMonth() + 1).padStart(2, '0');
  const key = `${area}/${yyyy}/${mm}/${randomUUID()}/${slugify(originalName)}`;
  assertValidKey(key); // rejects a bad `area`, which comes from code, not from users
  return key;
}

/** Lower-case ASCII slug of a file name: `[a-z0-9._-]`, no `..`, no leading dot, ≤ 100 chars, extension kept. */
export function slugify(originalName: string): string {
  const base = originalName.split(/[\\/]/).pop() ?? '';
  let slug = base
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // strip accents: "Facture été" → "facture ete"
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/-{2,}/g, '-')
    .replace(/^[.-]+|[.-]+$/g, '');
  if (slug.length > MAX_SLUG_LENGTH) {
    const dot = slug.lastIndexOf('.');
    const ext = dot > 0 && slug.length - dot <= 10 ? slug.slice(dot) : '';
    slug = slug.slice(0, MAX_SLUG_LENGTH - ext.length).replace(/[.-]+$/, '') + ext;
  }
  return slug || 'file';
}
