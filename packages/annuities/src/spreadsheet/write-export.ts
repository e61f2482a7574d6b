import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { dateFromDay, ymdFromDay, type Day } from '../calendar.ts';
import type { RowEvaluation } from '../evaluate.ts';
import { formatMinor } from '../fees.ts';
import type { Colour } from '../types.ts';
import type { CellValue } from './columns.ts';
import type { SheetInfo, SheetRow } from './rows.ts';

const FILLS: Readonly<Record<Colour, string>> = { ok: 'FFC6EFCE', nok: 'FFFFC7CE', orange: 'FFFFD8A8', no_date: 'FFEDEDED' };
const DATE_FORMAT = 'dd-mm-yyyy';

/** Computed columns appended after the original ones: French / English headers, the spec's field names. */
export const COMPUTED_COLUMNS = [
  'Office appliqué / Applied office',
  'Origine / Origin',
  'N° publication normalisé / Normalised publication no.',
  'N° dépôt normalisé / Normalised application no.',
  'url',
  'mois_date_depot',
  'date_precedente_annuite',
  'quant_precedent',
  'date_prochaine_annuite',
  'quant_prochain / next_number',
  'Limite d’instruction / Instruction limit',
  'Fin sans surtaxe / No-surcharge end',
  'limite_date_prochaine_annuite',
  'Taxe officielle / Official fee',
  'Devise / Currency',
  'Délai de grâce avec surtaxe / In grace with surcharge',
  'dechu',
  'Expiré / Expired',
  'Couleur / Colour',
  'Motifs / Reasons',
] as const;

/**
 * Spreadsheet formula and DDE triggers (reliability-security.md UP-16..18, ASVS 5.0 V1.2.10):
 * such text is written with a leading apostrophe, always as a string cell.
 */
export function neutralise(text: string): string {
  const first = text.charCodeAt(0);
  // = + - @ TAB CR LF NUL
  return first === 61 || first === 43 || first === 45 || first === 64 || first === 9 || first === 13 || first === 10 || first === 0 ? `'${text}` : text;
}

function original(value: CellValue): ExcelJS.CellValue {
  if (typeof value === 'string') return neutralise(value);
  return value;
}

function date(day: Day | null): Date | null {
  return day === null ? null : dateFromDay(day);
}

type Styles = Readonly<Record<Colour, { plain: Partial<ExcelJS.Style>; date: Partial<ExcelJS.Style> }>>;

function buildStyles(): Styles {
  const make = (argb: string) => {
    const fill: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb } };
    return { plain: { fill }, date: { fill, numFmt: DATE_FORMAT } };
  };
  return { ok: make(FILLS.ok), nok: make(FILLS.nok), orange: make(FILLS.orange), no_date: make(FILLS.no_date) };
}

function sheetName(wanted: string, used: Set<string>): string {
  const base = wanted.replace(/[[\]:*?/\\]/g, '_').slice(0, 28) || 'Sheet';
  let name = base;
  for (let i = 2; used.has(name.toLowerCase()); i++) name = `${base}_${i}`;
  used.add(name.toLowerCase());
  return name;
}

/**
 * Streams the annotated export: per input sheet, the original columns plus the computed ones,
 * rows filled by colour, dates as DD-MM-YYYY, header frozen; then a legend sheet.
 */
export class ExportWriter {
  private readonly workbook: ExcelJS.stream.xlsx.WorkbookWriter;
  private readonly styles = buildStyles();
  private readonly dateColumns = new Set<number>();
  private readonly names = new Set<string>(['légende - legend']);
  private sheet: ExcelJS.Worksheet | null = null;
  private width = 0;
  private filingIndex = -1;
  private grantIndex = -1;

  constructor(out: Writable) {
    this.workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  }

  startSheet(info: SheetInfo): void {
    this.sheet?.commit();
    const ws = this.workbook.addWorksheet(sheetName(info.name, this.names), { views: [{ state: 'frozen', ySplit: 1 }] });
    this.width = info.headers.length;
    this.dateColumns.clear();
    this.filingIndex = info.columns.get('filingDate') ?? -1;
    this.grantIndex = info.columns.get('grantDate') ?? -1;
    for (const index of [this.filingIndex, this.grantIndex]) if (index >= 0) this.dateColumns.add(index + 1);
    for (const offset of [6, 8, 10, 11, 12]) this.dateColumns.add(this.width + offset + 1);
    const header = ws.addRow([...info.headers.map(neutralise), ...COMPUTED_COLUMNS]);
    header.font = { bold: true };
    header.commit();
    this.sheet = ws;
  }

  addRow(row: SheetRow, ev: RowEvaluation): void {
    const ws = this.sheet;
    if (ws === null) throw new Error('addRow before startSheet');
    const s = ev.schedule;
    const values: ExcelJS.CellValue[] = new Array<ExcelJS.CellValue>(this.width + COMPUTED_COLUMNS.length).fill(null);
    for (let i = 0; i < this.width; i++) values[i] = original(row.cells[i] ?? null);
    // Original date cells that were understood are re-typed, so they show as DD-MM-YYYY too.
    if (this.filingIndex >= 0 && row.filingDate !== null) values[this.filingIndex] = date(row.filingDate);
    if (this.grantIndex >= 0 && row.grantDate !== null) values[this.grantIndex] = date(row.grantDate);
    const next = s?.next ?? null;
    const previous = s?.previous ?? null;
    const computed: ExcelJS.CellValue[] = [
      ev.office,
      ev.origin,
      ev.publication?.normalised ?? null,
      ev.application?.display ?? null,
      ev.url === null ? null : { text: ev.url, hyperlink: ev.url },
      s === null ? null : ymdFromDay(s.filing).month,
      date(previous?.due ?? null),
      previous?.number ?? null,
      date(next?.due ?? null),
      next?.number ?? null,
      date(s?.instructionLimit ?? null),
      date(next?.noSurchargeEnd ?? null),
      date(s?.nextLimit ?? null),
      next?.feeMinor === null || next === null ? null : Number(formatMinor(next.feeMinor)),
      next?.currency ?? null,
      s?.inGraceWithSurcharge ?? null,
      s?.lapsed ?? null,
      s?.expired ?? null,
      s?.colour ?? 'no_date',
      [...ev.reasons, ...(s?.flags ?? [])].join(', ') || null,
    ];
    for (let i = 0; i < computed.length; i++) values[this.width + i] = computed[i] ?? null;
    const added = ws.addRow(values);
    const style = this.styles[s?.colour ?? 'no_date'];
    for (let c = 1; c <= values.length; c++) added.getCell(c).style = this.dateColumns.has(c) ? style.date : style.plain;
    added.commit();
  }

  async finish(): Promise<void> {
    this.sheet?.commit();
    const legend = this.workbook.addWorksheet('Légende - Legend');
    legend.addRow(['Couleur / Colour', 'Signification', 'Meaning']).commit();
    const rows: Array<[Colour, string, string]> = [
      ['ok', 'Prochaine annuité à venir', 'Next annuity in the future'],
      ['nok', 'Prochaine annuité échue (aujourd’hui ou passée), encore payable', 'Next annuity due today or past, still payable'],
      ['orange', 'Seulement une annuité précédente (terminé, déchu ou expiré)', 'Only a previous annuity (done, lapsed or expired)'],
      ['no_date', 'Aucune date calculable', 'No date could be computed'],
    ];
    for (const [colour, fr, en] of rows) {
      const r = legend.addRow([colour, fr, en]);
      for (let c = 1; c <= 3; c++) r.getCell(c).style = this.styles[colour].plain;
      r.commit();
    }
    legend.addRow([]).commit();
    legend.addRow(['Dates', 'JJ-MM-AAAA', 'DD-MM-YYYY']).commit();
    legend.addRow(['Limite d’instruction', 'Échéance moins 7 jours', 'Due date minus 7 days']).commit();
    legend.addRow(['limite_date_prochaine_annuite', 'Dernier jour pour payer avant la perte du droit', 'Last day to pay before the right is lost']).commit();
    legend.commit();
    await this.workbook.commit();
  }
}
