import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@portal/contracts';
import { NAMESPACES, resources } from '../src/index.ts';

const REPO = path.resolve(import.meta.dirname, '../../..');
/** Where translation keys are used: the web app, the API, the mail templates, the workers. */
const SOURCE_DIRS = ['apps/web/src', 'apps/api/src', 'packages/mail/src', 'workers/src', 'packages/jobs/src'];

function leafKeys(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [prefix];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => leafKeys(v, prefix ? `${prefix}.${k}` : k));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(name) ? [full] : [];
  });
}

/** Every string literal in the sources, and the fixed beginning of every template literal with a placeholder. */
function usedKeys() {
  const literals = new Set<string>();
  const prefixes = new Set<string>();
  const suffixes = new Set<string>();
  for (const dir of SOURCE_DIRS) {
    for (const file of sourceFiles(path.join(REPO, dir))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(['"`])([A-Za-z][\w.:-]*)\1/g)) literals.add(m[2]!.replace(/^\w+:/, ''));
      for (const m of text.matchAll(/`([A-Za-z][\w.:-]*)\$\{/g)) prefixes.add(m[1]!.replace(/^\w+:/, ''));
      for (const m of text.matchAll(/`(?:\w+:)?\$\{[^}]+\}(\.[\w.]+)`/g)) suffixes.add(m[1]!);
    }
  }
  return { literals, prefixes, suffixes };
}

describe('translations', () => {
  it('every namespace has the same keys in French and English', () => {
    for (const ns of NAMESPACES) {
      const en = leafKeys(resources.en[ns]).sort();
      const fr = leafKeys(resources.fr[ns]).sort();
      expect(fr, `namespace ${ns}`).toEqual(en);
    }
  });

  it('no translation is empty in one language only', () => {
    const get = (locale: 'en' | 'fr', ns: (typeof NAMESPACES)[number], at: string) =>
      at.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], resources[locale][ns]);
    for (const locale of ['en', 'fr'] as const) {
      for (const ns of NAMESPACES) {
        const walk = (value: unknown, at: string) => {
          // An empty text in both languages is a deliberate "nothing here" (e.g. a mail without a button).
          if (typeof value === 'string' && get(locale === 'en' ? 'fr' : 'en', ns, at) !== '') expect(value.trim(), `${locale}:${ns}:${at}`).not.toBe('');
          else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, at ? `${at}.${k}` : k);
        };
        walk(resources[locale][ns], '');
      }
    }
  });

  it('every error code has a message, and every key is used somewhere', () => {
    // A message with a count has i18next's plural forms (`too_many_files_one`, `_other`…): its code is the base key.
    const codesWithMessage = [...new Set(leafKeys(resources.en.errors).map((k) => k.replace(/_(zero|one|two|few|many|other)$/, '')))];
    expect(codesWithMessage.sort()).toEqual(Object.keys(ERROR_CODES).sort());
    const { literals, prefixes, suffixes } = usedKeys();
    const unused: string[] = [];
    for (const ns of NAMESPACES) {
      if (ns === 'errors') continue; // keyed by ERROR_CODES, checked above
      for (const leaf of leafKeys(resources.en[ns])) {
        // i18next plural forms (count_one, count_other) are used through their base key.
        const key = leaf.replace(/_(zero|one|two|few|many|other)$/, '');
        // A key is used literally, through a template prefix (`screens.${screen}`), or as the parent of an object read whole.
        const used =
          literals.has(key) ||
          [...prefixes].some((p) => p.length > 0 && key.startsWith(p)) ||
          [...suffixes].some((sfx) => key.endsWith(sfx)) ||
          [...literals].some((l) => l.includes('.') && key.startsWith(`${l}.`));
        if (!used) unused.push(`${ns}:${leaf}`);
      }
    }
    expect(unused).toEqual([]);
  });
});
