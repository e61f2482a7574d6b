import { isIsoDay, type PatentRecordDto, type PatentSort, type PaymentInstructionDto } from '@portal/contracts';
import { formatMoney } from '../../lib/format.ts';

/** Pure rules of the patent screens (spec §4, §5, §9): filters, the per-row instruction choice, row states. */

export const PATENT_PAGE_SIZES = [10, 20, 50, 100] as const;
export type PatentPageSize = (typeof PATENT_PAGE_SIZES)[number];
export const DEFAULT_PATENT_PAGE_SIZE: PatentPageSize = 20;
/** Spec §9: the client-code search waits 500 ms after the last key. */
export const CODE_SEARCH_DEBOUNCE_MS = 500;
/** While live updates are interrupted, the lists are read again this often. */
export const PATENT_POLL_MS = 30_000;
/** Offices the filter proposes (the annuity engine's offices). */
export const OFFICES = ['BE', 'DE', 'EP', 'ES', 'FR', 'GB', 'IT', 'NL', 'SE', 'UP'] as const;
/** Origins of a right as the annuity engine knows them. */
export const ORIGINS = ['national', 'ep_validated', 'ep_application', 'unitary'] as const;
export const DEFAULT_SORT: PatentSort = 'DateEcheance';

/**
 * Spec §5 date filter: one YYYY-MM-DD day or two separated by `;` (from;to, either order). Spaces
 * around the parts are ignored; an empty text is "no filter". Answers the value to send, or null when the format is wrong.
 */
export function parseDateFilter(text: string): { ok: true; value: string | undefined } | { ok: false } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: undefined };
  const parts = trimmed.split(';').map((p) => p.trim());
  if (parts.length > 2 || !parts.every(isIsoDay)) return { ok: false };
  return { ok: true, value: [...parts].sort().join(';') };
}

/** Spec §5 reference filter: values separated by `;`, trimmed, empty ones dropped; undefined when none. */
export function parseReferences(text: string): string | undefined {
  const parts = text.split(';').map((p) => p.trim()).filter((p) => p !== '');
  return parts.length > 0 ? parts.join(';') : undefined;
}

/** One chosen instruction on a row, with what the bulk update sends back (spec §7) and the version read. */
export interface ChosenRow {
  idagenda: string;
  _id: string;
  ReferenceClient: string | null;
  noDepot: string | null;
  NoPublication: string | null;
  Pays: string;
  DateEcheance: string | null;
  instructionBeingUpdated: number;
  version: number;
}
export type Selection = ReadonlyMap<string, ChosenRow>;
export const EMPTY_SELECTION: Selection = new Map();

/**
 * Spec §4 per-patent choice: choosing an instruction selects the row and marks it being updated;
 * the same one again (or null, a cleared choice) deselects; another replaces it. A locked row never enters.
 */
export function choose(selection: Selection, row: PatentRecordDto, instruction: number | null): Selection {
  const next = new Map(selection);
  const current = selection.get(row.idagenda);
  if (row.locked !== null || instruction === null || current?.instructionBeingUpdated === instruction) {
    next.delete(row.idagenda);
    return next;
  }
  next.set(row.idagenda, {
    idagenda: row.idagenda,
    _id: row._id,
    ReferenceClient: row.ReferenceClient,
    noDepot: row.noDepot,
    NoPublication: row.NoPublication,
    Pays: row.Pays,
    DateEcheance: row.DateEcheance,
    instructionBeingUpdated: instruction,
    version: row.version,
  });
  return next;
}

/** The selection without the given rows (the ones a 409 refused). */
export function withoutRows(selection: Selection, idagendas: Iterable<string>): Selection {
  const next = new Map(selection);
  for (const id of idagendas) next.delete(id);
  return next;
}

/** A row changed by someone else (a newer version): its pending choice carries the new version only if the row can still change. */
export function refreshSelection(selection: Selection, rows: readonly PatentRecordDto[]): Selection {
  let changed = false;
  const next = new Map(selection);
  for (const row of rows) {
    const chosen = selection.get(row.idagenda);
    if (!chosen) continue;
    if (row.locked !== null) {
      next.delete(row.idagenda);
      changed = true;
    }
  }
  return changed ? next : selection;
}

/** The body of PUT /brevet_eptane/many/update_instruction. */
export function bulkBody(selection: Selection) {
  return {
    patents: [...selection.values()].map(({ _id: _ignored, ...row }) => row),
    not_updated: [],
  };
}

/** An instruction's title split at its first colon: the title, and the tooltip description after it. */
export function splitTitle(title: string): { title: string; description: string } {
  const at = title.indexOf(':');
  if (at < 0) return { title: title.trim(), description: '' };
  return { title: title.slice(0, at).replace(/[\s\u00a0\u202f]+$/u, ''), description: title.slice(at + 1).trim() };
}

export interface InstructionLabel {
  id: number;
  title: string;
  description: string;
}

/** The instructions in the screen's language (French for fr, English otherwise). */
export function instructionLabels(instructions: readonly PaymentInstructionDto[], lang: string): InstructionLabel[] {
  return instructions.map((i) => ({ id: i._id, ...splitTitle(lang.startsWith('fr') ? i.titre_fr : i.titre_en) }));
}

export type RowTone = 'treated' | 'grace' | 'pastLimit' | 'none';

/** True when an instruction was given or a treatment date recorded (spec §4 "Patent listing"). */
export function isTreated(row: PatentRecordDto): boolean {
  return row.id_instruction !== null || row.instruction.traitement_instruction !== 'unprocessed' || !!(row.DateAcquit ?? row.DatePaiementOffice ?? row.DateReponseACourrier ?? row.DatePaiementClient);
}

/**
 * Spec §4 row colours: treated green, then in grace with the surcharge (highlighted), then past the limit
 * date yellow. Every deadline is the server's (the annuity engine's `deadline`, the lock's reason): the
 * web compares no dates (issue 25).
 */
export function rowTone(row: PatentRecordDto): RowTone {
  if (isTreated(row)) return 'treated';
  // A year the ledger knows paid (a receipt, the back office) or the office confirmed is not due nor late (decision 198).
  if (row.ledger_state === 'paid' || row.ledger_state === 'confirmed') return 'treated';
  if (row.deadline?.state === 'grace') return 'grace';
  if (row.locked === 'patent_locked_limit_date' || row.deadline?.state === 'past_grace') return 'pastLimit';
  return 'none';
}

/** A server day (YYYY-MM-DD) in the page's language (decision 153: 15/03/2025, 15 Mar 2025), no time zone shifting it; '' for none. */
export { formatDay } from '../../lib/format.ts';

/** A euro amount in the screen's language. */
export function formatEuros(value: number | null, lang: string): string {
  return value === null ? '' : formatMoney(value, 'EUR', { lang });
}

/** The cells the missing-information screen edits (spec: application number, publication number, client reference, country). */
export const MISSING_FIELDS = ['noDepot', 'NoPublication', 'ReferenceClient', 'Pays'] as const;
export type MissingField = (typeof MISSING_FIELDS)[number];
export type RowEdits = Partial<Record<MissingField, string>>;

/** The body of one row's fill: the non-blank edited cells that are empty on the row, trimmed (country in capitals); null when nothing to send. */
export function fillBody(row: Pick<PatentRecordDto, MissingField | 'version'>, edits: RowEdits | undefined): Record<string, string | number> | null {
  const body: Record<string, string | number> = {};
  for (const field of MISSING_FIELDS) {
    const value = edits?.[field]?.trim();
    if (!value || (row[field] ?? '') !== '') continue;
    body[field] = field === 'Pays' ? value.toUpperCase() : value;
  }
  return Object.keys(body).length > 0 ? { ...body, version: row.version } : null;
}

/** Rows with at least one non-blank edit (what leaving the page would lose). */
export function dirtyRows(edits: ReadonlyMap<string, RowEdits>): number {
  let n = 0;
  for (const e of edits.values()) if (Object.values(e).some((v) => v.trim() !== '')) n++;
  return n;
}

/** The add-patent form (spec "Add patent form"): every field as typed. */
export interface AddValues extends Record<string, unknown> {
  numero_depot: string;
  numero_publication: string;
  date_depot: string;
  reference_client: string;
  reference_cabinet: string;
  date_echeance_annuites: string;
  pays: string;
  origine: string;
  instruction_paiement: string;
  quantieme: number | string;
  cout: number | string;
}

export const EMPTY_ADD_VALUES: AddValues = {
  numero_depot: '',
  numero_publication: '',
  date_depot: '',
  reference_client: '',
  reference_cabinet: '',
  date_echeance_annuites: '',
  pays: '',
  origine: '',
  instruction_paiement: '',
  quantieme: '',
  cout: '',
};

/**
 * A number field as typed: '' is null; "1 250,50", "-50" and 120.5 are numbers with their sign; any
 * other text stays text, for the contract to refuse with its message (issue 25 §3: never `Number`'s
 * guesses, where " " is 0, "1e3" is 1000 and "0x10" is 16).
 */
export function formNumber(x: number | string | null): number | string | null {
  if (x === null || x === '') return null;
  if (typeof x === 'number') return x;
  const text = x.replace(/[\s\u00a0\u202f]/g, '');
  if (text === '') return null;
  return /^-?\d+([.,]\d+)?$/.test(text) ? Number(text.replace(',', '.')) : x;
}

/** The form's values as POST /brevet_eptane/create takes them: numbers as numbers, empty as null. */
export function toCreateBody(v: AddValues): Record<string, unknown> {
  return { ...v, instruction_paiement: v.instruction_paiement ? Number(v.instruction_paiement) : null, quantieme: formNumber(v.quantieme), cout: formNumber(v.cout) };
}

