/**
 * A receipt's references: from the zip's manifest (CSV or xlsx), else from the PDF's text, else none.
 * Everything here is bounded: the manifest is at most RECEIPT_ZIP_LIMITS.maxManifestBytes, the text
 * looked at at most TEXT_LIMIT characters, and every pattern is linear (no nested quantifiers).
 */
export interface ReceiptReferences {
  referenceClient: string | null;
  referenceInpi: string | null;
  referenceProvider: string | null;
  /** YYYY-MM-DD. */
  dateOrdrePaiement: string | null;
}

export const EMPTY_REFERENCES: ReceiptReferences = { referenceClient: null, referenceInpi: null, referenceProvider: null, dateOrdrePaiement: null };
const TEXT_LIMIT = 200_000;
const MAX_VALUE = 200;

const clean = (value: unknown): string | null => {
  let raw: string;
  if (value instanceof Date) raw = Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10);
  else if (typeof value === 'string') raw = value;
  else if (typeof value === 'number' || typeof value === 'boolean') raw = String(value);
  else return null;
  const text = raw.replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
  return text === '' ? null : text.slice(0, MAX_VALUE);
};

/** A real calendar day from YYYY-MM-DD or DD/MM/YYYY (also - and .); null otherwise. */
export function dayOf(value: unknown): string | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString().slice(0, 10);
  const text = clean(value);
  if (!text) return null;
  let y: number, m: number, d: number;
  const ymd = /^(\d{4})-(\d{1,2})-(\d{1,2})/.exec(text);
  const dmy = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text);
  if (ymd) [y, m, d] = [Number(ymd[1]), Number(ymd[2]), Number(ymd[3])];
  else if (dmy) [y, m, d] = [Number(dmy[3]), Number(dmy[2]), Number(dmy[1])];
  else return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}

/** The manifest's rows by file name (lower case, the name as written and its base name both). */
export type Manifest = Map<string, ReceiptReferences>;

const headerOf = (value: unknown) =>
  (clean(value) ?? '')
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[\s-]+/g, '_');

/**
 * Builds the manifest from its rows (header first). Columns: `file`, `reference_client`,
 * `reference_inpi`, `reference_<provider>` (any other `reference_…` column is the provider's) and
 * `date_ordre_paiement`. Null when there is no `file` column.
 */
export function manifestOf(rows: readonly (readonly unknown[])[]): Manifest | null {
  const header = rows[0]?.map(headerOf) ?? [];
  const file = header.findIndex((h) => h === 'file' || h === 'fichier' || h === 'file_name');
  if (file === -1) return null;
  const client = header.indexOf('reference_client');
  const inpi = header.indexOf('reference_inpi');
  const provider = header.findIndex((h) => h.startsWith('reference_') && h !== 'reference_client' && h !== 'reference_inpi');
  const date = header.indexOf('date_ordre_paiement');
  const at = (row: readonly unknown[], index: number) => (index === -1 ? null : row[index]);
  const manifest: Manifest = new Map();
  for (const row of rows.slice(1)) {
    const name = clean(at(row, file));
    if (!name) continue;
    const refs: ReceiptReferences = {
      referenceClient: clean(at(row, client)),
      referenceInpi: clean(at(row, inpi)),
      referenceProvider: clean(at(row, provider)),
      dateOrdrePaiement: dayOf(at(row, date)),
    };
    const key = name.toLowerCase();
    if (!manifest.has(key)) manifest.set(key, refs);
    const base = key.split('/').pop()!;
    if (!manifest.has(base)) manifest.set(base, refs);
  }
  return manifest;
}

export function fromManifest(manifest: Manifest, entryName: string): ReceiptReferences | null {
  const key = entryName.toLowerCase();
  return manifest.get(key) ?? manifest.get(key.split('/').pop()!) ?? null;
}

// "Référence client : X", "Client reference: X"; the value is one token of letters, digits and - _ / .
const VALUE = String.raw`\s*(?:n[°o]\s*)?[:：]?\s*([A-Za-z0-9][A-Za-z0-9_./-]{0,99})`;
const PATTERNS: Record<Exclude<keyof ReceiptReferences, 'dateOrdrePaiement'>, RegExp[]> = {
  referenceClient: [new RegExp(String.raw`r[ée]f[ée]rence\s+client` + VALUE, 'i'), new RegExp(String.raw`client\s+reference` + VALUE, 'i')],
  referenceInpi: [new RegExp(String.raw`r[ée]f[ée]rence\s+inpi` + VALUE, 'i'), new RegExp(String.raw`inpi\s+reference` + VALUE, 'i')],
  referenceProvider: [
    new RegExp(String.raw`r[ée]f[ée]rence\s+(?:prestataire|fournisseur|de\s+paiement|transaction)` + VALUE, 'i'),
    new RegExp(String.raw`(?:provider|payment|transaction)\s+reference` + VALUE, 'i'),
  ],
};
const DATE = /(?:date\s+(?:de\s+l['’]\s*|d['’]\s*)?ordre\s+de\s+paiement|payment\s+order\s+date)\s*[:：]?\s*(\d{4}-\d{2}-\d{2}|\d{1,2}[/.-]\d{1,2}[/.-]\d{4})/i;

/** References found in a PDF's text by their labels (French or English); each null when absent. */
export function referencesFromText(fullText: string): ReceiptReferences {
  const text = fullText.slice(0, TEXT_LIMIT);
  const first = (patterns: RegExp[]) => {
    for (const p of patterns) {
      const m = p.exec(text);
      if (m?.[1]) return m[1].replace(/[./-]+$/, '') || null;
    }
    return null;
  };
  return {
    referenceClient: first(PATTERNS.referenceClient),
    referenceInpi: first(PATTERNS.referenceInpi),
    referenceProvider: first(PATTERNS.referenceProvider),
    dateOrdrePaiement: dayOf(DATE.exec(text)?.[1] ?? null),
  };
}

export const isComplete = (r: ReceiptReferences) => r.referenceClient !== null && r.referenceInpi !== null && r.referenceProvider !== null && r.dateOrdrePaiement !== null;
export const isEmpty = (r: ReceiptReferences) => r.referenceClient === null && r.referenceInpi === null && r.referenceProvider === null && r.dateOrdrePaiement === null;
