import type { MessagePort } from 'node:worker_threads';
import type { SerializedError } from '../ledes/engine-protocol.ts';

/** One spreadsheet row as stored (annuity_patents without its file id); plain data, crosses the thread. */
export interface PatentRecord {
  rowIndex: number;
  sheet: string;
  rowNumber: number;
  numPublication: string | null;
  numDepot: string | null;
  reference: string | null;
  nom: string | null;
  pays: string | null;
  payeur: string | null;
  url: string | null;
  publie: string | null;
  office: string | null;
  origin: string | null;
  dechu: boolean;
  expired: boolean;
  inGraceWithSurcharge: boolean;
  dateDepot: string | null;
  moisDateDepot: number | null;
  datePrecedenteAnnuite: string | null;
  quantPrecedent: number | null;
  dateProchaineAnnuite: string | null;
  nextNumber: number | null;
  instructionLimit: string | null;
  limiteDateProchaineAnnuite: string | null;
  fee: string | null;
  currency: string | null;
  colour: 'ok' | 'nok' | 'orange' | 'no_date';
  reasons: string[];
  flags: string[];
  commentaire: string | null;
  searchText: string;
}

/** What a user changed on a stored row; the export of a rewrite shows these instead of the computed values. */
export interface PatentOverride {
  commentaire: string | null;
  datePrecedenteAnnuite: string | null;
  quantPrecedent: number | null;
  dateProchaineAnnuite: string | null;
  limiteDateProchaineAnnuite: string | null;
  colour: 'ok' | 'nok' | 'orange' | 'no_date';
}

/** `check`: read, compute, store rows, write the export. `export`: rewrite the export with the stored edits. */
export interface AnnuityThreadData {
  mode: 'check' | 'export';
  bytes: Uint8Array;
  fileName: string;
  /** The reference date of the check, YYYY-MM-DD. */
  today: string;
  batchSize: number;
}

export interface CheckCounts {
  rows: number;
  colours: Record<'ok' | 'nok' | 'orange' | 'no_date', number>;
}

export type FromAnnuityThread =
  | { type: 'expected'; rows: number }
  | { type: 'rows'; rows: PatentRecord[] }
  | { type: 'xlsx'; chunk: Uint8Array }
  | { type: 'done'; counts: CheckCounts }
  | { type: 'refused'; reason: string }
  | { type: 'failed'; error: SerializedError };

export type ToAnnuityThread = { type: 'rows-ack'; overrides?: Array<PatentOverride | null> } | { type: 'xlsx-ack'; bytes: number };

/** Main thread → engine thread: one run, with its own port. */
export interface AnnuityThreadRequest {
  port: MessagePort;
  data: AnnuityThreadData;
}
