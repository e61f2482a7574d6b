import { PassThrough, type Writable } from 'node:stream';
import { SPEND_DIMENSIONS, type SpendAnalyticsResponse, type SpendFigures } from '@portal/contracts';
import { serverT, type Locale } from '@portal/i18n';
import { csvLine } from '@portal/jobs';
import { neutralise, XlsxStreamWriter, type OutCell } from '@portal/xlsx';

/** The export's rows: every dimension's groups as the screen shows them (the first SPEND_TOP, then the rest). */
function rowsOf(data: Omit<SpendAnalyticsResponse, 'success'>, locale: Locale): { header: string[]; rows: [string, string, string, SpendFigures][] } {
  const t = serverT(locale);
  const header = ['dimension', 'value', 'name', 'spend', 'refused', 'over_guidelines', 'lines'].map((c) => t(`api:analytics_export.${c}`));
  const rows: [string, string, string, SpendFigures][] = [[t('api:analytics_export.total'), '', '', data.totals]];
  for (const d of SPEND_DIMENSIONS) {
    const label = t(`api:analytics_export.dimensions.${d}`);
    for (const g of data.groups[d].top) rows.push([label, g.key, g.label ?? '', g]);
    const others = data.groups[d].others;
    if (others) rows.push([label, t('api:analytics_export.others'), '', others]);
  }
  return { header, rows };
}

/** CSV: `;`-separated, the reader's decimal separator, a BOM so a spreadsheet opens the UTF-8 right. */
export function spendCsv(data: Omit<SpendAnalyticsResponse, 'success'>, locale: Locale): Buffer {
  const { header, rows } = rowsOf(data, locale);
  const dec = (v: string) => (locale === 'fr' ? v.replace('.', ',') : v);
  const lines = [csvLine(header), ...rows.map(([d, k, n, f]) => csvLine([d, k, n, dec(f.spend), dec(f.refused), dec(f.over_guidelines), f.lines]))];
  return Buffer.from('\ufeff' + lines.join(''), 'utf8');
}

/** xlsx: amounts as numbers (the spreadsheet formats them in its reader's locale). */
export async function writeSpendXlsx(out: Writable, data: Omit<SpendAnalyticsResponse, 'success'>, locale: Locale): Promise<void> {
  const { header, rows } = rowsOf(data, locale);
  const writer = new XlsxStreamWriter(out, ['FFFFFFFF']);
  await writer.startSheet(serverT(locale)('api:analytics_export.sheet'), { widths: [16, 24, 24, 16, 16, 16, 10] });
  await writer.row(header, XlsxStreamWriter.HEADER_STYLE);
  for (const [d, k, n, f] of rows) {
    const cells: OutCell[] = [d, neutralise(k), neutralise(n), Number(f.spend), Number(f.refused), Number(f.over_guidelines), f.lines];
    await writer.row(cells);
  }
  await writer.finish();
}

export function spendXlsxStream(data: Omit<SpendAnalyticsResponse, 'success'>, locale: Locale): { stream: PassThrough; done: Promise<void> } {
  const stream = new PassThrough();
  const done = writeSpendXlsx(stream, data, locale).then(
    () => {
      stream.end();
    },
    (error: unknown) => {
      stream.destroy(error as Error);
    },
  );
  return { stream, done };
}
