import { dayFromDate, dayFromExcelSerial, validDay, type Day } from '../calendar.ts';
import { isOffice, type Office, type Origin } from '../types.ts';

/** The column of a cell reference (`AB12` and `ab` are 28); 0 when it has no letters; past XFD (16,384) as soon as it is. */
export function columnOf(ref: string): number {
  let column = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i) | 0x20; // lower case
    if (c < 0x61 || c > 0x7a) break;
    column = column * 26 + (c - 0x60);
    if (column > 0x4000) return column;
  }
  return column;
}

/** A cell as read, before interpretation. Formulas arrive as their text ("=…"), never evaluated. */
export type CellValue = string | number | boolean | Date | null;

export const FIELDS = [
  'publication',
  'application',
  'reference',
  'title',
  'country',
  'payer',
  'filingDate',
  'grantDate',
  'lastPaid',
  'comment',
  'origin',
] as const;
export type Field = (typeof FIELDS)[number];

/** Lower case, no accents, punctuation and underscores as single spaces. */
export function normaliseHeader(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const has = (h: string, ...words: string[]) => words.some((w) => h.split(' ').includes(w));
const hasPrefix = (h: string, ...prefixes: string[]) => h.split(' ').some((t) => prefixes.some((p) => t.startsWith(p)));

/**
 * French and English headers seen in client sheets and in the spec's field names
 * (num_publication, num_depot, date_depot, quant_precedent…). First matching rule wins.
 */
const RULES: ReadonlyArray<readonly [Field, (h: string) => boolean]> = [
  ['filingDate', (h) => hasPrefix(h, 'date') && (has(h, 'depot', 'filing', 'application', 'deposit', 'demande') || h === 'date')],
  ['grantDate', (h) => hasPrefix(h, 'delivr', 'grant') || (has(h, 'date') && has(h, 'issue'))],
  ['lastPaid', (h) => (hasPrefix(h, 'annuit', 'renewal', 'quant', 'annuity') && (hasPrefix(h, 'pay', 'paid', 'last', 'dern', 'preced') || has(h, 'precedent'))) || h === 'quant precedent'],
  ['publication', (h) => (hasPrefix(h, 'publi', 'nopublication') || h === 'pub no' || h === 'pub number') && !has(h, 'date')],
  ['application', (h) => hasPrefix(h, 'depot', 'nodepot', 'application', 'filing', 'deposit', 'demande') && !has(h, 'date')],
  ['reference', (h) => hasPrefix(h, 'ref', 'nosref', 'dossier', 'matter', 'docket')],
  ['title', (h) => hasPrefix(h, 'titre', 'title', 'intitule') || h === 'nom' || h === 'name' || h === 'designation'],
  ['country', (h) => hasPrefix(h, 'pays', 'country', 'office', 'juridiction', 'jurisdiction') || h === 'cc'],
  ['payer', (h) => hasPrefix(h, 'payeur', 'payer', 'donneur', 'client')],
  ['comment', (h) => hasPrefix(h, 'comment', 'remarque', 'note', 'observation')],
  ['origin', (h) => hasPrefix(h, 'origin', 'voie', 'route')],
];

export function fieldOfHeader(header: string): Field | null {
  const h = normaliseHeader(header);
  if (h === '') return null;
  for (const [field, test] of RULES) if (test(h)) return field;
  return null;
}

/** Column index (0-based) of each recognised field; a Map, so header text never becomes an object key. */
export type ColumnMap = ReadonlyMap<Field, number>;

/** A header row needs a country or a number column and one more known field. */
export function matchColumns(headers: readonly string[]): ColumnMap | null {
  const map = new Map<Field, number>();
  headers.forEach((header, index) => {
    const field = fieldOfHeader(header);
    if (field !== null && !map.has(field)) map.set(field, index);
  });
  const anchored = map.has('country') || map.has('publication') || map.has('application');
  return anchored && map.size >= 2 ? map : null;
}

export function cellText(value: CellValue): string | null {
  if (value === null) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString().slice(0, 10);
  const text = String(value).trim();
  return text === '' ? null : text;
}

const DMY_RE = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/;
const YMD_RE = /^(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})(?:[T ][\d:.]+Z?)?$/;

/** A date whatever the cell type: Date, Excel serial, DD/MM/YYYY (also - and .), YYYY-MM-DD. */
export function cellDate(value: CellValue, date1904: boolean): Day | null {
  if (value === null || typeof value === 'boolean') return null;
  if (value instanceof Date) return dayFromDate(value);
  if (typeof value === 'number') return dayFromExcelSerial(value, date1904);
  const text = value.trim();
  if (text.length > 32) return null;
  let m = DMY_RE.exec(text);
  if (m) return validDay(Number(m[3]), Number(m[2]), Number(m[1]));
  m = YMD_RE.exec(text);
  if (m) return validDay(Number(m[1]), Number(m[2]), Number(m[3]));
  if (/^\d{5}(\.\d+)?$/.test(text)) return dayFromExcelSerial(Number(text), date1904);
  return null;
}

export function cellInteger(value: CellValue): number | null {
  if (typeof value === 'number') return Number.isInteger(value) ? value : null;
  if (typeof value !== 'string') return null;
  const m = /^\s*(\d{1,2})\s*(?:e|er|eme|ème|th|st|nd|rd)?\s*$/i.exec(value);
  return m ? Number(m[1]) : null;
}

const COUNTRY_NAMES: ReadonlyMap<string, Office> = new Map([
  ['europe', 'EP'], ['european patent', 'EP'], ['brevet europeen', 'EP'], ['european', 'EP'], ['epo', 'EP'], ['oeb', 'EP'],
  ['unitary patent', 'UP'], ['brevet unitaire', 'UP'], ['unitary', 'UP'], ['unitaire', 'UP'],
  ['belgique', 'BE'], ['belgium', 'BE'],
  ['allemagne', 'DE'], ['germany', 'DE'], ['deutschland', 'DE'],
  ['espagne', 'ES'], ['spain', 'ES'], ['espana', 'ES'],
  ['france', 'FR'],
  ['royaume uni', 'GB'], ['united kingdom', 'GB'], ['grande bretagne', 'GB'], ['great britain', 'GB'], ['uk', 'GB'],
  ['italie', 'IT'], ['italy', 'IT'], ['italia', 'IT'],
  ['pays bas', 'NL'], ['netherlands', 'NL'], ['the netherlands', 'NL'], ['nederland', 'NL'],
  ['suede', 'SE'], ['sweden', 'SE'], ['sverige', 'SE'],
]);

export function officeOfCountry(text: string | null): Office | null {
  if (text === null) return null;
  const upper = text.trim().toUpperCase();
  if (isOffice(upper)) return upper;
  return COUNTRY_NAMES.get(normaliseHeader(text)) ?? null;
}

export function originOfText(text: string | null): Origin | null {
  if (text === null) return null;
  const h = normaliseHeader(text);
  if (h === '') return null;
  if (hasPrefix(h, 'unitar', 'unitair') || h === 'up') return 'unitary';
  if (hasPrefix(h, 'valid') || h === 'ep national' || h === 'ep' || h === 'europeen valide') return 'ep_validated';
  if (hasPrefix(h, 'pending', 'demande') || h === 'ep application') return 'ep_application';
  if (hasPrefix(h, 'nation')) return 'national';
  return null;
}
