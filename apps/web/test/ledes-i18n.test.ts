import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import en from '../../../packages/i18n/locales/en/ledes.json' with { type: 'json' };
import fr from '../../../packages/i18n/locales/fr/ledes.json' with { type: 'json' };

type Tree = { [k: string]: string | Tree };

/** Keys with the plural suffixes folded, so fr's _many does not count as an extra key. */
function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k.replace(/_(one|many|other)$/, '')}`] : keys(v, `${prefix}${k}.`),
  );
}

function has(tree: Tree, key: string): boolean {
  let node: string | Tree | undefined = tree;
  const parts = key.split('.');
  const last = parts.pop()!;
  for (const p of parts) {
    if (typeof node !== 'object') return false;
    node = node[p];
  }
  if (typeof node !== 'object') return false;
  return typeof node[last] === 'string' || typeof node[`${last}_other`] === 'string';
}

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/features/ledes');
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : /\.tsx?$/.test(f) ? [readFileSync(p, 'utf8')] : [];
  });
}

describe('ledes namespace', () => {
  it('has the same keys in English and French, none empty', () => {
    expect([...new Set(keys(fr as Tree))].sort()).toEqual([...new Set(keys(en as Tree))].sort());
    for (const tree of [en, fr] as Tree[]) {
      const walk = (t: Tree): void => Object.values(t).forEach((v) => (typeof v === 'string' ? expect(v.trim()).not.toBe('') : walk(v)));
      walk(tree);
    }
  });

  it('keeps the catalogue texts', () => {
    expect(en.upload.errors.error_file).toBe('Please select at least one file.');
    expect(en.upload.errors.missing_type).toBe('Please select a file type');
    expect(en.upload.errors.missing_office).toBe('Please select an office');
    expect(en.upload.errors.missing_id_user).toBe('Please select a user');
    expect(fr.history.empty).toBe('Aucun historique disponible');
    expect(en.history.neverRun).toBe('No LEDES verification has been performed yet.');
    expect(en.upload.type.annuity_utility).toContain('CLIENT_MATTER_ID must end with the due date as [YYYYMMDD]');
  });

  it('defines every literal key the screens use', () => {
    const used = new Set<string>();
    for (const src of sources(DIR)) {
      for (const m of src.matchAll(/\bt\(\s*'([a-zA-Z0-9_.]+)'/g)) used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(40);
    const missing = [...used].filter((k) => !has(en as Tree, k) || !has(fr as Tree, k));
    expect(missing).toEqual([]);
  });
});
