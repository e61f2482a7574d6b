import type { Writable } from 'node:stream';
import type { Day } from './calendar.ts';
import { evaluateRow } from './evaluate.ts';
import type { ReasonCode, Result } from './reasons.ts';
import { DEFAULT_LIMITS, type SpreadsheetLimits } from './spreadsheet/limits.ts';
import { readSpreadsheet } from './spreadsheet/read.ts';
import type { ReadStats } from './spreadsheet/rows.ts';
import { ExportWriter } from './spreadsheet/write-export.ts';
import type { Colour } from './types.ts';

export interface CheckSummary extends ReadStats {
  readonly colours: Readonly<Record<Colour, number>>;
  readonly lapsed: number;
  readonly expired: number;
  readonly inGraceWithSurcharge: number;
  /** How many rows carry each reason code. */
  readonly reasons: ReadonlyMap<ReasonCode, number>;
}

export interface CheckOptions {
  readonly today: Day;
  /** Where the annotated export goes; omitted, only the summary is computed. */
  readonly out?: Writable;
  readonly limits?: SpreadsheetLimits;
}

/**
 * Reads a workbook, computes every row and streams the export. On a refusal the summary is a
 * reason code and whatever reached `out` must be discarded by the caller.
 */
export async function checkSpreadsheet(bytes: Buffer, fileName: string, options: CheckOptions): Promise<Result<CheckSummary>> {
  const writer = options.out ? new ExportWriter(options.out) : null;
  const colours: Record<Colour, number> = { ok: 0, nok: 0, orange: 0, no_date: 0 };
  const reasons = new Map<ReasonCode, number>();
  let lapsed = 0;
  let expired = 0;
  let inGrace = 0;
  const read = await readSpreadsheet(
    bytes,
    fileName,
    {
      sheet: (info) => writer?.startSheet(info),
      row: async (row) => {
        const ev = evaluateRow(row, options.today);
        const s = ev.schedule;
        colours[s?.colour ?? 'no_date']++;
        if (s?.lapsed) lapsed++;
        if (s?.expired) expired++;
        if (s?.inGraceWithSurcharge) inGrace++;
        for (const r of new Set(ev.reasons)) reasons.set(r, (reasons.get(r) ?? 0) + 1);
        await writer?.addRow(row, ev);
      },
    },
    options.limits ?? DEFAULT_LIMITS,
  );
  if (!read.ok) return read;
  await writer?.finish();
  return { ok: true, value: { ...read.value, colours, lapsed, expired, inGraceWithSurcharge: inGrace, reasons } };
}
