import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSpreadsheet, COMPUTED_COLUMNS, LEDGER_REASONS, writeLedgerExport, type LedgerMove } from '../src/index.ts';
import { parseIsoDate } from '../src/calendar.ts';
import { MOVE_CODES, writeLedgerExportInThread } from '../src/spreadsheet/ledger-export-thread.ts';
import { ENGLISH_HEADERS, FRENCH_HEADERS, rowsFrom, xlsxBuffer, type Cell } from './support/workbooks.ts';

const TODAY = parseIsoDate('2026-11-27')!;
const FILLS: Record<string, string> = { ok: 'FFC6EFCE', nok: 'FFFFC7CE', orange: 'FFFFD8A8', no_date: 'FFEDEDED' };

function collect(): { stream: PassThrough; bytes: () => Buffer } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, bytes: () => Buffer.concat(chunks) };
}

async function exportOf(input: Buffer, name: string): Promise<Buffer> {
  const { stream, bytes } = collect();
  const summary = await checkSpreadsheet(input, name, { today: TODAY, out: stream });
  expect(summary.ok).toBe(true);
  stream.end();
  return bytes();
}

async function load(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  return wb;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ledger-export-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function throughLedger(stored: Buffer, moves: ReadonlyMap<number, LedgerMove>) {
  const path = join(dir, `${Math.random().toString(36).slice(2)}.xlsx`);
  await writeFile(path, stored);
  const { stream, bytes } = collect();
  const result = await writeLedgerExport(path, (i) => moves.get(i), stream);
  stream.end();
  return { result, out: bytes() };
}

/** Every cell of a sheet: value, fill, number format, per row. */
function cellsOf(ws: ExcelJS.Worksheet) {
  const rows: Array<Array<{ value: unknown; fill: string | undefined; numFmt: string | undefined }>> = [];
  ws.eachRow({ includeEmpty: true }, (row, r) => {
    const cells: (typeof rows)[number] = [];
    row.eachCell({ includeEmpty: true }, (cell, c) => {
      cells[c - 1] = { value: cell.value, fill: (cell.fill as ExcelJS.FillPattern | undefined)?.fgColor?.argb, numFmt: cell.numFmt };
    });
    rows[r] = cells;
  });
  return rows;
}

describe('the export as a reader’s ledger shows it (decision 234)', () => {
  it('moved rows take the ledger’s fill, colour and reason, across sheets; every other cell and row is unchanged', async () => {
    const input = await xlsxBuffer([
      { name: 'Premier', headers: FRENCH_HEADERS, rows: rowsFrom(0, 60) },
      // No comment column, an extra one: the computed columns sit elsewhere on this sheet.
      { name: 'Second', headers: [...ENGLISH_HEADERS.slice(0, 9), 'Notes'], rows: rowsFrom(60, 40) as Iterable<Cell[]> },
    ]);
    const stored = await exportOf(input, 'two.xlsx');
    const before = await load(stored);
    const colourAt = (ws: ExcelJS.Worksheet) => (ws.getRow(1).values as unknown[]).lastIndexOf('Couleur / Colour');
    const reasonsAt = (ws: ExcelJS.Worksheet) => colourAt(ws) + 1;
    const [first, second] = before.worksheets as [ExcelJS.Worksheet, ExcelJS.Worksheet];
    // Pick rows the dates colour otherwise: a red one to pay, a green one lapsed, one on the second sheet.
    const rowOf = (ws: ExcelJS.Worksheet, colour: string, offset: number) => {
      for (let r = 2; r <= ws.rowCount; r++) if (ws.getRow(r).getCell(colourAt(ws)).value === colour) return r - 2 + offset;
      throw new Error(`no ${colour} row on ${ws.name}`);
    };
    const paidFirst = rowOf(first, 'nok', 0);
    const lapsedFirst = rowOf(first, 'ok', 0);
    const paidSecond = rowOf(second, 'nok', 60);
    const moves = new Map<number, LedgerMove>([[paidFirst, 'paid'], [lapsedFirst, 'lapsed'], [paidSecond, 'paid']]);

    const { result, out } = await throughLedger(stored, moves);
    expect(result).toEqual({ rows: 100, recoloured: 3 });
    const after = await load(out);
    expect(after.worksheets.map((w) => w.name)).toEqual(before.worksheets.map((w) => w.name));
    for (const [s, offset] of [[0, 0], [1, 60]] as const) {
      const was = cellsOf(before.worksheets[s]!);
      const now = cellsOf(after.worksheets[s]!);
      const ws = before.worksheets[s]!;
      expect(now.length).toBe(was.length);
      for (let r = 1; r < was.length; r++) {
        const move = r >= 2 ? moves.get(r - 2 + offset) : undefined;
        if (!move) {
          expect(now[r], `${ws.name} row ${r}`).toEqual(was[r]);
          continue;
        }
        const colour = move === 'paid' ? 'ok' : 'orange';
        for (let c = 1; c < was[r]!.length; c++) {
          const cell = now[r]![c - 1]!;
          const old = was[r]![c - 1]!;
          // Same number formats (dates stay dates), the ledger's fill on every styled cell.
          expect(cell.numFmt, `${ws.name} ${r}:${c}`).toBe(old.numFmt);
          if (old.fill !== undefined) expect(cell.fill, `${ws.name} ${r}:${c}`).toBe(FILLS[colour]);
          if (c === colourAt(ws)) expect(cell.value).toBe(colour);
          else if (c === reasonsAt(ws)) {
            const codes = String(cell.value).split(', ');
            expect(codes.at(-1)).toBe(LEDGER_REASONS[move]);
            if (move === 'paid') expect(codes).not.toContain('payment_unknown');
          } else expect(cell.value, `${ws.name} ${r}:${c}`).toEqual(old.value);
        }
      }
    }
    // The legend says what the ledger's codes mean, in both languages.
    const legend = after.worksheets.at(-1)!;
    const line = legend.getRows(1, legend.rowCount)?.find((r) => r.getCell(1).value === LEDGER_REASONS.paid);
    expect(String(line?.getCell(2).value)).toMatch(/registre des paiements/);
    expect(String(line?.getCell(3).value)).toMatch(/payment ledger/);
  });

  it('a paid row drops "payment not known" and keeps its other reasons', async () => {
    // No "last annuity paid" column: rows due soon are red with payment_unknown.
    const headers = ENGLISH_HEADERS.filter((h) => h !== 'Last annuity paid');
    const rows: Cell[][] = [
      [null, null, 'DUE', 'Due soon', 'FR', null, '10/12/2015', '10/12/2018', null],
      [null, null, 'LATER', 'Due later', 'FR', null, '10/06/2015', '10/06/2018', null],
    ];
    const stored = await exportOf(await xlsxBuffer([{ name: 'Sheet', headers, rows }]), 'due.xlsx');
    const before = (await load(stored)).worksheets[0]!;
    const reasons = headers.length + COMPUTED_COLUMNS.length;
    // Both granted on a filing anniversary (flagged), both red with the payment not known.
    expect(before.getRow(2).getCell(reasons).value).toBe('grant_on_anniversary, payment_unknown');
    expect(before.getRow(3).getCell(reasons).value).toBe('grant_on_anniversary, payment_unknown');
    const { out } = await throughLedger(stored, new Map([[0, 'paid'], [1, 'lapsed']]));
    const after = (await load(out)).worksheets[0]!;
    expect(after.getRow(2).getCell(reasons).value).toBe('grant_on_anniversary, ledger_paid');
    expect(after.getRow(3).getCell(reasons).value).toBe('grant_on_anniversary, payment_unknown, ledger_lapsed');
  });

  it('a moved row without any reason gets the ledger’s alone, in a cell of its own', async () => {
    const rows: Cell[][] = [[null, null, 'PLAIN', 'No reason', 'FR', null, '10/12/2015', '11/12/2018', 12, null]];
    const stored = await exportOf(await xlsxBuffer([{ name: 'Sheet', headers: FRENCH_HEADERS, rows }]), 'plain.xlsx');
    const reasons = FRENCH_HEADERS.length + COMPUTED_COLUMNS.length;
    const before = (await load(stored)).worksheets[0]!;
    expect(before.getRow(2).getCell(reasons).value).toBeNull();
    const { out } = await throughLedger(stored, new Map([[0, 'lapsed']]));
    const after = (await load(out)).worksheets[0]!;
    expect(after.getRow(2).getCell(reasons).value).toBe(LEDGER_REASONS.lapsed);
    expect((after.getRow(2).getCell(reasons).fill as ExcelJS.FillPattern).fgColor?.argb).toBe(FILLS.orange);
  });

  it('no move: the same cells, rows and sheets', async () => {
    const stored = await exportOf(await xlsxBuffer([{ name: 'Sheet', headers: FRENCH_HEADERS, rows: rowsFrom(0, 30) }]), 'none.xlsx');
    const { result, out } = await throughLedger(stored, new Map());
    expect(result).toEqual({ rows: 30, recoloured: 0 });
    const [was, now] = [await load(stored), await load(out)];
    expect(cellsOf(now.worksheets[0]!)).toEqual(cellsOf(was.worksheets[0]!));
    expect(cellsOf(now.worksheets[1]!)).toEqual(cellsOf(was.worksheets[1]!));
  });

  it('rows far apart in a large sheet (chunk boundaries) are each found', async () => {
    const stored = await exportOf(await xlsxBuffer([{ name: 'Big', headers: FRENCH_HEADERS, rows: rowsFrom(0, 5_000) }]), 'big.xlsx');
    const moves = new Map<number, LedgerMove>([0, 1, 777, 2_048, 4_999].map((i) => [i, 'lapsed'] as const));
    const { result, out } = await throughLedger(stored, moves);
    expect(result).toEqual({ rows: 5_000, recoloured: 5 });
    const ws = (await load(out)).worksheets[0]!;
    const colour = FRENCH_HEADERS.length + COMPUTED_COLUMNS.indexOf('Couleur / Colour') + 1;
    for (const i of moves.keys()) expect(ws.getRow(i + 2).getCell(colour).value).toBe('orange');
    expect(ws.getRow(5_001 + 1).getCell(colour).value).toBeNull();
  });

  it('in a thread of its own: the same workbook, byte for byte, as on the calling thread', async () => {
    const stored = await exportOf(await xlsxBuffer([{ name: 'Thread', headers: FRENCH_HEADERS, rows: rowsFrom(0, 2_000) }]), 'thread.xlsx');
    const moves = new Map<number, LedgerMove>([[3, 'paid'], [4, 'lapsed'], [1_999, 'paid']]);
    const { result, out } = await throughLedger(stored, moves);
    const path = join(dir, 'thread-in.xlsx');
    await writeFile(path, stored);
    const codes = new Uint8Array(2_000);
    for (const [i, move] of moves) codes[i] = MOVE_CODES[move];
    const threaded = await writeLedgerExportInThread(path, codes, join(dir, 'thread-out.xlsx'));
    expect(threaded).toEqual(result);
    expect((await readFile(join(dir, 'thread-out.xlsx'))).equals(out)).toBe(true);
  });

  it('in a thread: a stored file that is not a workbook rejects, and the thread ends', async () => {
    const path = join(dir, 'not-a-zip.xlsx');
    await writeFile(path, 'not a zip at all');
    await expect(writeLedgerExportInThread(path, new Uint8Array(1), join(dir, 'never.xlsx'))).rejects.toThrow(/ledger export thread/);
  });
});
