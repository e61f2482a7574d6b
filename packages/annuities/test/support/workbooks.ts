import { PassThrough } from 'node:stream';
import XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';

export type Cell = string | number | Date | null;

export const FRENCH_HEADERS = ['N° de publication', 'N° de dépôt', 'Référence', 'Titre', 'Pays', 'Payeur', 'Date de dépôt', 'Date de délivrance', 'Dernière annuité payée', 'Commentaire'];
export const ENGLISH_HEADERS = ['Publication number', 'Application number', 'Reference', 'Title', 'Country', 'Payer', 'Filing date', 'Grant date', 'Last annuity paid', 'Comment'];

const OFFICES = ['FR', 'DE', 'EP', 'GB', 'ES', 'IT', 'NL', 'SE', 'BE', 'UP'] as const;

/** Deterministic mixed rows: every office, validated and national, dates in every accepted shape. */
function mixedRow(i: number): Cell[] {
  const office = OFFICES[i % OFFICES.length] as (typeof OFFICES)[number];
  const year = 2006 + (i % 19);
  const month = 1 + (i % 12);
  const dayOfMonth = 1 + (i % 28);
  const filing = new Date(Date.UTC(year, month - 1, dayOfMonth));
  const dd = String(dayOfMonth).padStart(2, '0');
  const mm = String(month).padStart(2, '0');
  const filingCell: Cell = i % 4 === 0 ? filing : i % 4 === 1 ? `${dd}/${mm}/${year}` : i % 4 === 2 ? `${year}-${mm}-${dd}` : 25569 + filing.getTime() / 86_400_000;
  const validated = office !== 'EP' && office !== 'UP' && i % 3 === 0;
  const serial = String(1_000_000 + (i % 8_999_999)).slice(-7);
  let publication: string;
  let application: string | null = null;
  if (office === 'EP' || office === 'UP' || validated) {
    publication = `EP ${serial.slice(0, 1)} ${serial.slice(1, 4)} ${serial.slice(4)} B1`;
    application = `EP${String(year % 100).padStart(2, '0')}${serial.slice(1)}0`.slice(0, 10);
  } else if (office === 'DE') {
    publication = `DE10${year}${serial.slice(1)}A1`;
    application = `10 ${year} ${serial.slice(1, 4)} ${serial.slice(4)}`;
  } else if (office === 'ES') {
    publication = `ES${serial}T3`;
    application = `P${year}${serial.slice(2)}`;
  } else if (office === 'SE') {
    publication = `SE${serial.slice(1)}C2`;
  } else if (office === 'IT') {
    publication = `IT10${year}00000${serial.slice(1)}`.slice(0, 17);
  } else {
    publication = `${office}${serial}`;
  }
  const grantYear = year + 3 + (i % 4);
  const grant: Cell = office === 'EP' || i % 5 === 1 ? null : `${String(1 + (i % 27)).padStart(2, '0')}/${mm}/${grantYear}`;
  const lastPaid: Cell = i % 7 === 0 ? Math.min(20, 3 + (i % 15)) : null;
  return [publication, application, `REF-${i}`, `Invention n°${i}`, office, i % 2 ? 'Client A' : 'Client B', filingCell, grant, lastPaid, i % 11 === 0 ? '=1+1 note' : null];
}

export async function xlsxBuffer(sheets: ReadonlyArray<{ name: string; headers: readonly string[]; rows: Iterable<Cell[]> }>): Promise<Buffer> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: true, useStyles: false });
  for (const sheet of sheets) {
    const ws = wb.addWorksheet(sheet.name);
    ws.addRow([...sheet.headers]).commit();
    for (const row of sheet.rows) ws.addRow(row).commit();
    ws.commit();
  }
  await wb.commit();
  return Buffer.concat(chunks);
}

/**
 * Legacy .xls (BIFF8) through SheetJS; BIFF8 holds at most 65,536 rows a sheet. By default strings
 * go to a shared-string table as Excel writes them; SheetJS's SST writer is too slow for the
 * 100,000-row bench fixture, which uses inline LABEL records instead.
 */
export function xlsBuffer(sheets: ReadonlyArray<{ name: string; headers: readonly string[]; rows: Iterable<Cell[]> }>, sharedStrings = true): Buffer {
  const wb = XLSX.utils.book_new();
  for (const sheet of sheets) {
    const ws = XLSX.utils.aoa_to_sheet([[...sheet.headers], ...sheet.rows], { cellDates: true });
    XLSX.utils.book_append_sheet(wb, ws, sheet.name);
  }
  return XLSX.write(wb, { type: 'buffer', bookType: 'biff8', bookSST: sharedStrings }) as Buffer;
}

export function* rowsFrom(start: number, count: number): Generator<Cell[]> {
  for (let i = start; i < start + count; i++) yield mixedRow(i);
}
