import { PassThrough } from 'node:stream';
import { FORECAST_EXPORT_COLUMNS, type ForecastFigure, type ForecastPeriod, type ForecastResponse } from '@portal/contracts';
import { csvLine } from '@portal/jobs';
import { XlsxStreamWriter, type OutCell } from '@portal/xlsx';

/* The forecast as a file (decision 201): one line per period and office, then the totals per currency, each figure with its parts. */

type Line = readonly [string, string, string, string, string, string, number, number, number, number, number, number, number, number, number, number, number];

/** A figure's columns after the period and office: its parts in its currency, then every part of the patent's detail in euros. */
const cells = (f: ForecastFigure) =>
  [f.parts.official, f.parts.surcharge, f.total, f.annuities, f.eur.official, f.eur.surcharge, f.eur.agent_fee, f.eur.service_fee, f.eur.margin, f.eur.total, f.eur.unconverted] as const;

export function exportLines(forecast: Omit<ForecastResponse, 'success'>): Line[] {
  const lines: Line[] = [];
  const of = (kind: string, p: ForecastPeriod) => {
    for (const o of p.offices) lines.push([kind, p.period, p.from, p.to, o.office, o.currency, ...cells(o)]);
    for (const t of p.totals) lines.push([kind, p.period, p.from, p.to, 'total', t.currency, ...cells(t)]);
  };
  for (const y of forecast.years) of('year', y);
  for (const m of forecast.months) of('month', m);
  const first = forecast.years[0];
  const last = forecast.years.at(-1);
  for (const t of forecast.totals) lines.push(['all', 'all', first?.from ?? forecast.today, last?.to ?? forecast.today, 'total', t.currency, ...cells(t)]);
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
