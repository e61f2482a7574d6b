import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { checkSpreadsheet, parseIsoDate, type Day } from '../packages/annuities/src/index.ts';
import { FRENCH_HEADERS, rowsFrom, xlsxBuffer } from '../packages/annuities/test/support/workbooks.ts';

/** The annuity benches' generated workbooks, kept between runs (they take seconds to write at 100,000 rows). */
export const ANNUITY_BENCH_DIR = join(tmpdir(), 'annuities-bench');
/** The day the benches check their workbooks on. */
export const BENCH_TODAY = parseIsoDate('2026-11-21') as Day;

/** Where `workbookFixture(rows)` is written. */
export const workbookFixturePath = (rows: number) => join(ANNUITY_BENCH_DIR, `mixed-${rows}.xlsx`);
/** Where `exportFixture(rows)` is written. */
export const exportFixturePath = (rows: number) => join(ANNUITY_BENCH_DIR, `export-${rows}.xlsx`);

/** A one-sheet French workbook of `rows` generated patents (`rowsFrom`), written once. */
export async function workbookFixture(rows: number): Promise<string> {
  const file = workbookFixturePath(rows);
  await mkdir(ANNUITY_BENCH_DIR, { recursive: true });
  if (!existsSync(file)) await writeFile(file, await xlsxBuffer([{ name: 'Annuités', headers: FRENCH_HEADERS, rows: rowsFrom(0, rows) }]));
  return file;
}

/** The check's annotated export of `workbookFixture(rows)`, written once: what the worker stores for such a file. */
export async function exportFixture(rows: number): Promise<string> {
  const file = exportFixturePath(rows);
  if (existsSync(file)) return file;
  const input = await workbookFixture(rows);
  const out = createWriteStream(file);
  const result = await checkSpreadsheet(await readFile(input), input, { today: BENCH_TODAY, out });
  out.end();
  await finished(out);
  if (!result.ok) throw new Error(`export fixture: ${result.reason}`);
  return file;
}
