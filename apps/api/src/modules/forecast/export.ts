import { PassThrough } from 'node:stream';
import { FORECAST_EXPORT_COLUMNS, type ForecastEur, type ForecastFigure, type ForecastPeriod, type ForecastResponse } from '@portal/contracts';
import { csvLine } from '@portal/jobs';
import { XlsxStreamWriter, type OutCell } from '@portal/xlsx';

/*
 * The forecast as a file (decision 201): one line per period and office, then the totals per currency, each figure with
 * its parts; then the period's line `all` (every currency together, as the screen's "All costs in euros"): no amount in
 * an office's currency (empty cells), its annuities and its parts in euros.
 */

type Line = readonly [string, string, string, string, string, string, number | null, number | null, number | null, number, number, number, number, number, number, number, number];

const eurCells = (e: ForecastEur) => [e.official, e.surcharge, e.agent_fee, e.service_fee, e.margin, e.total, e.unconverted] as const;
/** A figure's columns after the period and office: its parts in its currency, then every part of the patent's detail in euros. */
const cells = (f: ForecastFigure) => [f.parts.official, f.parts.surcharge, f.total, f.annuities, ...eurCells(f.eur)] as const;
/** Every currency together: the annuities and the euros only. */
const allCells = (totals: readonly ForecastFigure[], eur: ForecastEur) => [null, null, null, totals.reduce((n, t) => n + t.annuities, 0), ...eurCells(eur)] as const;

export function exportLines(forecast: Omit<ForecastResponse, 'success'>): Line[] {
  const lines: Line[] = [];
  const of = (kind: string, p: ForecastPeriod) => {
    for (const o of p.offices) lines.push([kind, p.period, p.from, p.to, o.office, o.currency, ...cells(o)]);
    for (const t of p.totals) lines.push([kind, p.period, p.from, p.to, 'total', t.currency, ...cells(t)]);
    if (p.totals.length > 0) lines.push([kind, p.period, p.from, p.to, 'all', '', ...allCells(p.totals, p.eur)]);
  };
  for (const y of forecast.years) of('year', y);
  for (const m of forecast.months) of('month', m);
  const first = forecast.years[0];
  const last = forecast.years.at(-1);
  const from = first?.from ?? forecast.today;
  const to = last?.to ?? forecast.today;
  for (const t of forecast.totals) lines.push(['all', 'all', from, to, 'total', t.currency, ...cells(t)]);
  if (forecast.totals.length > 0) lines.push(['all', 'all', from, to, 'all', '', ...allCells(forecast.totals, forecast.eur)]);
  return lines;
}

export function forecastCsv(lines: readonly Line[]): string {
  return csvLine([...FORECAST_EXPORT_COLUMNS]) + lines.map((l) => csvLine([...l])).join('');
}

/** The workbook in memory: a few hundred lines at most (5 years and 12 months × 10 offices). */
export async function forecastXlsx(lines: readonly Line[]): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    out.on('end', resolve);
    out.on('error', reject);
  });
  const writer = new XlsxStreamWriter(out, ['FFFFFFFF']);
  await writer.startSheet('forecast', { widths: FORECAST_EXPORT_COLUMNS.map(() => 14) });
  await writer.row([...FORECAST_EXPORT_COLUMNS], XlsxStreamWriter.HEADER_STYLE);
  for (const l of lines) await writer.row([...l] as OutCell[]);
  await writer.finish();
  out.end();
  await ended;
  return Buffer.concat(chunks);
}
