import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * What a built process loads when it starts (decision 238): the third-party packages a bundle imports statically,
 * through its chunks. Libraries only some requests or some files need are imported where they are used, so an idle
 * API does not hold them (issue 28: every isolate pays for every library it loads).
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'portal-server-build-'));
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-server.mjs'), dir], { stdio: 'pipe' });
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The packages `entry` and the chunks it imports statically import at load (`import()` left out), node's own left out. */
function loadedAtStart(entry: string): Set<string> {
  return packagesOf(entry, false);
}

/** The packages `entry` can ever load: its static imports and its `import()`s, through its chunks. */
function reachable(entry: string): Set<string> {
  return packagesOf(entry, true);
}

function packagesOf(entry: string, dynamic: boolean): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(path.join(dir, file), 'utf8');
    for (const match of source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?\bfrom\s*"([^"]+)"|(?:^|\n)\s*import\s*"([^"]+)"/g)) {
      const specifier = (match[1] ?? match[2])!;
      if (specifier.startsWith('./')) walk(specifier.slice(2));
      else if (!specifier.startsWith('node:')) packages.add(specifier);
    }
    if (!dynamic) return;
    for (const match of source.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)) {
      const specifier = match[1]!;
      if (specifier.startsWith('./')) walk(specifier.slice(2));
      else if (!specifier.startsWith('node:')) packages.add(specifier);
    }
  };
  walk(entry);
  return packages;
}

describe('the built server', () => {
  it('reads the static imports it checks (the walk sees the API’s own framework)', () => {
    const api = loadedAtStart('api.mjs');
    expect(api).toContain('express');
    expect(api).toContain('drizzle-orm');
  });

  it('starts the API without the libraries of call PDFs, MFA enrolment and spreadsheets', () => {
    const api = loadedAtStart('api.mjs');
    for (const library of ['pdfkit', 'qrcode', 'exceljs', '@e965/xlsx']) expect(api, library).not.toContain(library);
  });

  it('starts the annuity engine thread without SheetJS (loaded with the first .xls)', () => {
    const engine = loadedAtStart('annuity-engine-worker.mjs');
    expect(engine).not.toContain('@e965/xlsx');
    expect(reachable('annuity-engine-worker.mjs')).toContain('@e965/xlsx');
  });

  it('never loads exceljs in the annuity engine thread: .xlsx files are read by the engine\'s own reader (decision 240)', () => {
    expect(reachable('annuity-engine-worker.mjs')).not.toContain('exceljs');
  });
});
