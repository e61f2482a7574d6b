import type { MessagePort } from 'node:worker_threads';
import type { StoredAnnuityFields } from '@portal/annuities';
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
  /** A lapsed row: the missed annuity's number and its lost-after day, YYYY-MM-DD. */
  missedNumber: number | null;
  missedLostAfter: string | null;
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

/**
 * A stored row a user edited: its comment and the annuity fields the portal stores for it (the
 * user's values, or the engine's recomputation after an edit). The export of a rewrite shows these,
 * not a new computation, so it says what the screens say.
 */
export interface PatentOverride extends StoredAnnuityFields {
  commentaire: string | null;
}

/** `check`: read, compute, store rows, write the export. `export`: rewrite the export with the stored edits. */
export interface AnnuityThreadData {
  mode: 'check' | 'export';
  /** The upload: its bytes (transferred), or the path of the worker's temporary copy, read in the engine thread. */
  input: AnnuityInput;
  fileName: string;
  /** The reference date of the check, YYYY-MM-DD. */
  today: string;
  batchSize: number;
  /**
   * A check only: the rows per insert statement. The thread then sends each batch packed for the database
   * (`packBatch`: per statement, one array literal per column) instead of row objects.
   */
  statementRows?: number;
  /**
   * A check on the embedded database's thread (decision 232): the thread runs each packed statement itself, this
   * insert with the file's id and the statement's literals, on the port of the request (`database`), and tells the
   * main thread the rows stored (`stored`) instead of sending them (`rows`).
   */
  store?: { sql: string; fileId: string };
}

/** An upload given to the engine: bytes, or a file the caller removes after the run. */
export type AnnuityInput = Uint8Array | { path: string };

export interface CheckCounts {
  rows: number;
  colours: Record<'ok' | 'nok' | 'orange' | 'no_date', number>;
}

export type FromAnnuityThread =
  | { type: 'expected'; rows: number }
  | { type: 'rows'; rows: PatentRecord[] | PackedBatch }
  | { type: 'stored'; rows: number }
  | { type: 'xlsx'; chunk: Uint8Array }
  | { type: 'done'; counts: CheckCounts }
  | { type: 'refused'; reason: string }
  | { type: 'failed'; error: SerializedError };

export type ToAnnuityThread = { type: 'rows-ack'; overrides?: Array<PatentOverride | null> } | { type: 'xlsx-ack'; bytes: number };

/** Main thread → engine thread: one run, with its own port. */
export interface AnnuityThreadRequest {
  port: MessagePort;
  data: AnnuityThreadData;
  /** With `data.store`: a port of the embedded database's thread, transferred with the request. */
  database?: MessagePort;
}

/**
 * One insert statement's rows, packed (issue 28): per field of PATENT_FIELDS (packed-rows.ts), PostgreSQL's array
 * literal of the rows' values (`{"a",NULL,"b"}`). The engine thread packs a check's rows as it reads them, so what crosses to
 * the main thread, and from there to the embedded database's thread, is ~33 flat strings a statement rather than
 * a hundred objects of 33 fields (each cloned twice, the first copy waiting in the main thread's heap long
 * enough to be promoted), and PGlite's thread no longer turns JavaScript arrays into these literals itself.
 */
export interface PackedPatents {
  /** The rows it holds. */
  count: number;
  /** One array literal per field of PATENT_FIELDS (packed-rows.ts), in that order. */
  columns: string[];
}

/** A batch of a check, packed by the engine thread: its statements in order (`length`: the rows, as an array's). */
export interface PackedBatch {
  packed: true;
  length: number;
  statements: PackedPatents[];
}
