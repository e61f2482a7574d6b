import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as constants from '../src/constants.ts';
import * as contracts from '../src/index.ts';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

/** Every module a file loads at run time (type-only imports and re-exports are erased). */
function runtimeImports(file: string, seen = new Set<string>()): Set<string> {
  const source = readFileSync(file, 'utf8');
  for (const m of source.matchAll(/^(?:import|export)\s+(?!type\s)[^'";]*?from\s+'([^']+)'/gm)) {
    const spec = m[1]!;
    if (!spec.startsWith('.')) {
      seen.add(spec);
      continue;
    }
    const target = path.resolve(path.dirname(file), spec);
    if (seen.has(target)) continue;
    seen.add(target);
    runtimeImports(target, seen);
  }
  return seen;
}

describe('@portal/contracts/constants', () => {
  it('loads no package at run time (no zod): the web first load imports it', () => {
    const imports = [...runtimeImports(path.join(SRC, 'constants.ts'))];
    expect(imports.filter((i) => !i.startsWith(SRC))).toEqual([]);
    expect(imports.map((i) => path.relative(SRC, i)).sort()).toEqual(['realtime.ts', 'roles.ts']);
  });

  it('is re-exported unchanged by @portal/contracts', () => {
    for (const [name, value] of Object.entries(constants)) {
      expect((contracts as Record<string, unknown>)[name], name).toBe(value);
    }
    expect(constants.PASSWORD_MIN_LENGTH).toBe(12);
    expect(constants.REALTIME_PATH).toBe('/realtime');
  });
});
