import { PassThrough } from 'node:stream';
import { formatMinor, parseIsoDate } from '@portal/annuities/core';
import { serverT, type Locale } from '@portal/i18n';
import { neutralise, XlsxStreamWriter } from '@portal/xlsx';
import { formatMailDay } from '../mails.ts';
import { CALL_TOTAL_CURRENCY, partOf, type CallStep, type PricedItem } from './costs.ts';

/** One line of a call as its documents show it. */
export interface CallLine {
  reference: string | null;
  pays: string;
  numeroDepot: string | null;
  quantieme: number | null;
  dueDate: string;
  instructBefore: string;
  priced: PricedItem;
}

export interface CallDocument {
  clientCode: string;
  step: CallStep;
  day: string;
  locale: Locale;
  lines: readonly CallLine[];
  totals: readonly { currency: string; totalMinor: number }[];
}

/** An amount in minor units as its reader writes it: 1 234,50 EUR in French, 1,234.50 EUR in English. */
export function formatAmount(minor: number, currency: string, locale: Locale): string {
  const [units, cents] = formatMinor(minor).split('.') as [string, string];
  const grouped = new Intl.NumberFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', { useGrouping: true }).format(Number(units));
  return `${grouped}${locale === 'fr' ? ',' : '.'}${cents} ${currency}`;
}

const tx = (locale: Locale) => {
  const t = serverT(locale);
  return (key: string) => t(`renewal_call.doc.${key}`, { ns: 'emails' });
};

/** The euros of one named part of an item (0 when absent, null when it has no rate). */
const eurOf = (p: PricedItem, part: string): number | null =>
  p.parts.filter((x) => x.part === part).reduce<number | null>((sum, x) => (sum === null || x.eurMinor === null ? null : sum + x.eurMinor), 0);

/**
 * The amount columns of a line (text, '—' when unknown): official fee and surcharge in the office's currency, the
 * agent's fee, service fee and margin and the total in euros (the parts of the patent's detail, decision 199).
 */
export function amountsOf(line: CallLine, locale: Locale): { fee: string; surcharge: string; agentFee: string; serviceFee: string; margin: string; total: string } {
  const p = line.priced;
  if (p.currency === null || !p.parts.some((x) => x.part === 'official_fee')) return { fee: '—', surcharge: '—', agentFee: '—', serviceFee: '—', margin: '—', total: '—' };
  const eur = (part: string) => {
    const v = eurOf(p, part);
    return v === null ? '—' : formatAmount(v, CALL_TOTAL_CURRENCY, locale);
  };
  return {
    fee: formatAmount(partOf(p, 'official_fee'), p.currency, locale),
    surcharge: formatAmount(partOf(p, 'surcharge'), p.currency, locale),
    agentFee: eur('agent_fee'),
    serviceFee: eur('service_fee'),
    margin: eur('margin'),
    total: p.totalMinor === null ? '—' : formatAmount(p.totalMinor, CALL_TOTAL_CURRENCY, locale),
  };
}

/**
 * The call as a PDF (pdfkit, standard Helvetica: WinAnsi covers French). pdfkit and its font tables are loaded with the
 * first call written, not when the API starts (≈ 20 MB of a process that writes none, issue 28).
 */
export async function callPdf(doc: CallDocument): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const t = tx(doc.locale);
  const step = serverT(doc.locale)(`renewal_call.steps.${doc.step}`, { ns: 'emails' });
  const pdf = new PDFDocument({ size: 'A4', layout: 'landscape', margin: 36, info: { Title: `${t('title')} ${doc.clientCode}` } });
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  pdf.font('Helvetica-Bold').fontSize(16).text(`${t('title')} — ${step}`);
  pdf.font('Helvetica').fontSize(10).moveDown(0.5);
  pdf.text(`${t('client')}: ${doc.clientCode}`);
  pdf.text(`${t('date')}: ${formatMailDay(doc.day, doc.locale)}`);
  pdf.moveDown();
  // The page's 770 pt across: the client's reference widest, so a usual one stays on one line (and can be searched).
  const columns: [string, number][] = [
    [t('reference'), 125], [t('country'), 30], [t('application'), 75], [t('year'), 35], [t('due'), 60], [t('before'), 65], [t('fee'), 70], [t('surcharge'), 60], [t('agent_fee'), 60], [t('service_fee'), 60], [t('margin'), 55], [t('total_eur'), 75],
  ];
  const row = (cells: string[], bold = false) => {
    const y = pdf.y;
    let x = pdf.page.margins.left;
    pdf.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8);
    let height = 0;
    cells.forEach((cell, i) => {
      const width = columns[i]![1];
      pdf.text(cell, x, y, { width: width - 4 });
      height = Math.max(height, pdf.y - y);
      x += width;
    });
    pdf.x = pdf.page.margins.left;
    pdf.y = y + height + 4;
    if (pdf.y > pdf.page.height - pdf.page.margins.bottom - 30) pdf.addPage();
  };
  row(columns.map(([label]) => label), true);
  for (const line of doc.lines) {
    const a = amountsOf(line, doc.locale);
    row([line.reference ?? '—', line.pays, line.numeroDepot ?? '—', line.quantieme === null ? '—' : String(line.quantieme), formatMailDay(line.dueDate, doc.locale), formatMailDay(line.instructBefore, doc.locale), a.fee, a.surcharge, a.agentFee, a.serviceFee, a.margin, a.total]);
  }
  pdf.moveDown();
  pdf.font('Helvetica-Bold').fontSize(10).text(t('totals'), pdf.page.margins.left);
  pdf.font('Helvetica');
  for (const total of doc.totals) pdf.text(formatAmount(total.totalMinor, total.currency, doc.locale));
  pdf.end();
  return done;
}

/** The call as a workbook (`@portal/xlsx`): one line per annuity, each part a column; amounts as numbers in the currency's units. */
export async function callXlsx(doc: CallDocument): Promise<Buffer> {
  const t = tx(doc.locale);
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    out.on('end', resolve);
    out.on('error', reject);
  });
  const writer = new XlsxStreamWriter(out, ['FFFFFFFF']);
  const header = ['client', 'reference', 'country', 'application', 'year', 'due', 'before', 'currency', 'fee', 'surcharge', 'agent_fee', 'service_fee', 'margin', 'total_eur'].map(t);
  await writer.startSheet(doc.clientCode.slice(0, 31) || 'call', { widths: header.map(() => 16) });
  await writer.row(header, XlsxStreamWriter.HEADER_STYLE);
  const dateStyle = XlsxStreamWriter.styleOf(0, true);
  const styles = header.map((_h, i) => (i === 5 || i === 6 ? dateStyle : 0));
  const asDay = (iso: string) => ({ day: parseIsoDate(iso) ?? 0 });
  const units = (minor: number | null) => (minor === null ? null : Number(formatMinor(minor)));
  for (const line of doc.lines) {
    const p = line.priced;
    const known = p.currency !== null && p.parts.some((x) => x.part === 'official_fee');
    await writer.row(
      [
        neutralise(doc.clientCode),
        line.reference === null ? null : neutralise(line.reference),
        line.pays,
        line.numeroDepot === null ? null : neutralise(line.numeroDepot),
        line.quantieme,
        asDay(line.dueDate),
        asDay(line.instructBefore),
        p.currency,
        known ? units(partOf(p, 'official_fee')) : null,
        known ? units(partOf(p, 'surcharge')) : null,
        known ? units(eurOf(p, 'agent_fee')) : null,
        known ? units(eurOf(p, 'service_fee')) : null,
        known ? units(eurOf(p, 'margin')) : null,
        units(p.totalMinor),
      ],
      styles,
    );
  }
  await writer.finish();
  out.end();
  await ended;
  return Buffer.concat(chunks);
}
