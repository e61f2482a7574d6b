import { sql } from 'drizzle-orm';
import type { AnnuityFileDto } from '@portal/contracts';
import type { Database } from '@portal/db';
import { MOVE_CODES, type LedgerMoves } from '@portal/annuities/ledger-export-thread';
import { rowsOf, type AnnuityFileRow } from '@portal/jobs';
import type { AppContext } from '../../context.ts';
import { KeptReads } from '../../domain/kept-reads.ts';
import { readerScope, type Reader } from './ledger-colours.ts';
import { COLOUR_CODES, type Colour } from './sort-orders.ts';

/*
 * A file's colours as one reader's rows show them (decision 233). The list colours each row of a page by the ledger
 * (ledger-colours.ts, decision 214); the file's per-colour counts, its colour filter, its colour sort and the bulk
 * comment over a colour must say the same. The stored colour (the dates', indexed, counted on the file row) holds
 * but for the rows the ledger moves: a linked row whose next annuity the reader's ledger holds paid or confirmed
 * (→ `ok`) or lapsed (→ `orange`) while the dates say otherwise.
 *
 * Those rows are read in one statement over the file's linked rows (`annuity_patents_file_linked_idx`) against the
 * ledger's primary key, with the statement's snapshot (`pg_current_snapshot()`), and kept per (file version,
 * reader). A kept answer is used while no transaction that changed what it read committed since its snapshot: the
 * triggers of migration 0037 note each such transaction (`ledger_colour_writes`: the ledger's years, the readers'
 * cabinets and client codes, a record's cabinet or client code), and one index range scan asks whether a noted
 * transaction is one the snapshot did not see (`pg_visible_in_snapshot`). So a payment shows in the next answer,
 * and a file whose 100,000 rows are all portfolio patents costs that statement once, not at every page. A file
 * without linked rows (`annuity_files.linked_rows`, kept by the check) asks nothing.
 */

/** The colours the ledger moves, by row index: 0 the stored colour holds, else 1 + stored code × 4 + the ledger's code (COLOUR_CODES). */
export interface FileColours {
  readonly byRow: Uint8Array;
  /** How many rows of each colour the ledger adds (negative: takes away), for the counts. */
  readonly moved: Readonly<Record<Colour, number>>;
  /** How many rows it moves. */
  readonly size: number;
}

/** The wire's per-colour counts (`colourCountsSchema`). */
export type ColourCounts = NonNullable<AnnuityFileDto['counts']>;
type FileVersion = Pick<AnnuityFileRow, 'id' | 'editVersion' | 'updatedAt' | 'linkedRows'>;

const NAMES = Object.keys(COLOUR_CODES) as Colour[];
const NAME_OF: Colour[] = [];
for (const name of NAMES) NAME_OF[COLOUR_CODES[name]] = name;

/** The colour code of a row: the ledger's where it moves it, else the stored one. */
export function colourOf(colours: FileColours, rowIndex: number, stored: number): number {
  const moved = colours.byRow[rowIndex];
  return moved ? (moved - 1) & 3 : stored;
}

/** The rows the ledger moves, with their stored and their ledger colours. */
export function* movedRows(colours: FileColours): Generator<{ rowIndex: number; from: Colour; to: Colour }> {
  const { byRow } = colours;
  for (let rowIndex = 0; rowIndex < byRow.length; rowIndex++) {
    const moved = byRow[rowIndex]!;
    if (moved) yield { rowIndex, from: NAME_OF[(moved - 1) >> 2]!, to: NAME_OF[(moved - 1) & 3]! };
  }
}

/** What the ledger says of each moved row (the export's recolouring, decision 234): lapsed (→ `orange`) or paid (→ `ok`). */
export function ledgerMovesOf(colours: FileColours): LedgerMoves {
  const { byRow } = colours;
  const moves = new Uint8Array(byRow.length);
  for (let rowIndex = 0; rowIndex < byRow.length; rowIndex++) {
    const moved = byRow[rowIndex]!;
    if (moved) moves[rowIndex] = ((moved - 1) & 3) === COLOUR_CODES.orange ? MOVE_CODES.lapsed : MOVE_CODES.paid;
  }
  return moves;
}

/** The stored counts with the ledger's moves. */
export function countsWith(stored: ColourCounts, colours: FileColours): ColourCounts {
  if (colours.size === 0) return stored;
  return { ok: stored.ok + colours.moved.ok, nok: stored.nok + colours.moved.nok, orange: stored.orange + colours.moved.orange, no_date: stored.no_date + colours.moved.no_date };
}

/** A kept answer's life at most (the notes of ledger_colour_writes are kept a day). */
const MAX_AGE_MS = 60 * 60 * 1000;
/** Bytes kept per database handle: a 100,000-row file's moves are at most 100 kB. */
const BUDGET_BYTES = 16 * 2 ** 20;

interface Entry {
  snapshot: string;
  colours: FileColours;
  at: number;
}
const kept = new KeptReads<Entry>({ maxBytes: BUDGET_BYTES, bytesOf: (entry) => entry.colours.byRow.byteLength });
let reads = 0;

/** How many times files' colours were read from the database in this process (the tests' gauge). */
export const colourReads = () => reads;

const LEDGER_CODE_SQL = sql.raw(`case l.state when 'lapsed' then ${COLOUR_CODES.orange} else ${COLOUR_CODES.ok} end`);
const STORED_CODE_SQL = sql.raw(`case r.colour ${NAMES.map((n) => `when '${n}' then ${COLOUR_CODES[n]}`).join(' ')} end`);

/**
 * The statement: the snapshot, and per file the moved rows packed as `row_index × 16 + stored code × 4 + ledger code`.
 * Its plan is asserted in annuity-file-plans.test.ts (the linked rows by their index, no scan of the file).
 */
export const fileColoursQuery = (fileIds: readonly string[], actor: Reader) => sql`
  select pg_current_snapshot()::text as snapshot, (
    select coalesce(json_object_agg(f.file_id, f.rows), '{}') from (
      select r.file_id::text as file_id, json_agg(r.row_index * 16 + ${STORED_CODE_SQL} * 4 + ${LEDGER_CODE_SQL}) as rows
      from annuity_patents r
      join patent_ledger l on l.patent_key = r.patent_key and l.annuity_year = r.next_number
      join patent_records p on p.id = l.record_id
      where r.file_id = any(${sql.param(fileIds)}::uuid[]) and r.patent_key is not null
        and l.state in ('paid', 'confirmed', 'lapsed') and ${STORED_CODE_SQL} <> ${LEDGER_CODE_SQL} and ${readerScope(actor)}
      group by r.file_id
    ) f) as files`;

/** No row moved. */
const NONE: FileColours = { byRow: new Uint8Array(0), moved: { ok: 0, nok: 0, orange: 0, no_date: 0 }, size: 0 };

function coloursOf(packed: readonly number[] | undefined): FileColours {
  if (!packed || packed.length === 0) return NONE;
  let last = 0;
  for (const p of packed) last = Math.max(last, p >> 4);
  const byRow = new Uint8Array(last + 1);
  const moved = { ok: 0, nok: 0, orange: 0, no_date: 0 };
  for (const p of packed) {
    byRow[p >> 4] = 1 + (p & 15);
    moved[NAME_OF[(p >> 2) & 3]!]--;
    moved[NAME_OF[p & 3]!]++;
  }
  return { byRow, moved, size: packed.length };
}

async function readColours(db: Database, actor: Reader, fileIds: readonly string[]): Promise<Map<string, Entry>> {
  reads++;
  const [row] = rowsOf<{ snapshot: string; files: Record<string, number[]> | string }>(await db.execute(fileColoursQuery(fileIds, actor)));
  const files = typeof row!.files === 'string' ? (JSON.parse(row!.files) as Record<string, number[]>) : row!.files;
  const at = Date.now();
  return new Map(fileIds.map((id) => [id, { snapshot: row!.snapshot, colours: coloursOf(files[id]), at }]));
}

/** The snapshots of `snapshots` that a transaction noted in ledger_colour_writes committed after. */
async function outdated(db: Database, snapshots: readonly string[]): Promise<Set<string>> {
  const rows = rowsOf<{ snapshot: string }>(
    await db.execute(sql`select s.snapshot from unnest(${sql.param(snapshots)}::text[]) as s(snapshot)
      where exists (select 1 from ledger_colour_writes w
        where w.xid >= pg_snapshot_xmin(s.snapshot::pg_snapshot) and not pg_visible_in_snapshot(w.xid, s.snapshot::pg_snapshot))`),
  );
  return new Set(rows.map((r) => r.snapshot));
}

/**
 * The checks of kept answers (`outdated`), grouped per database handle: while one statement runs, the snapshots asked
 * meanwhile wait for the next one, which starts once it has ended and answers them all. The statement a request waits
 * for always starts after the request came, so a write committed before it shows in its answer; twenty readers of a
 * file at once ask two statements instead of twenty.
 */
class OutdatedChecks {
  private running: Promise<unknown> | null = null;
  private next: { snapshots: Set<string>; result: Promise<Set<string>> } | null = null;
  statements = 0;

  constructor(private readonly db: Database) {}

  check(snapshots: readonly string[]): Promise<Set<string>> {
    if (!this.running) return this.start(new Set(snapshots));
    if (!this.next) {
      const waiting = new Set<string>();
      const begin = () => {
        this.next = null;
        return this.start(waiting);
      };
      this.next = { snapshots: waiting, result: this.running.then(begin, begin) };
    }
    for (const snapshot of snapshots) this.next.snapshots.add(snapshot);
    return this.next.result;
  }

  private start(snapshots: Set<string>): Promise<Set<string>> {
    this.statements++;
    const result = outdated(this.db, [...snapshots]);
    const running: Promise<unknown> = result.then(
      () => this.ended(running),
      () => this.ended(running),
    );
    this.running = running;
    return result;
  }

  private ended(running: Promise<unknown>): void {
    if (this.running === running) this.running = null;
  }
}
const checks = new WeakMap<Database, OutdatedChecks>();
const checksOf = (db: Database) => {
  let found = checks.get(db);
  if (!found) checks.set(db, (found = new OutdatedChecks(db)));
  return found;
};
/** How many `outdated` statements were run on `db` (the tests' gauge). */
export const outdatedStatements = (db: Database) => checks.get(db)?.statements ?? 0;

const keyOf = (file: FileVersion, actor: Reader) => JSON.stringify([file.id, file.editVersion, file.updatedAt.getTime(), actor.isAdmin ? 'admin' : actor.userId]);

/**
 * The files' colours as this reader's rows show them, by file id: kept answers still right, the others read in one
 * statement. Requests asking at once share a read; a failed read is not kept.
 */
export async function fileColours(ctx: Pick<AppContext, 'db'>, actor: Reader, files: readonly FileVersion[]): Promise<Map<string, FileColours>> {
  const { db } = ctx;
  const result = new Map<string, FileColours>();
  // A file without linked rows: the ledger moves none of its colours, nothing to ask.
  for (const file of files) if (file.linkedRows === 0) result.set(file.id, NONE);
  const found: Array<{ file: FileVersion; key: string; read: Promise<Entry>; entry: Entry }> = [];
  await Promise.all(
    files.filter((file) => !result.has(file.id)).map(async (file) => {
      const key = keyOf(file, actor);
      const read = kept.peek(db, key);
      const entry = await read?.catch(() => undefined);
      if (read && entry && Date.now() - entry.at < MAX_AGE_MS) found.push({ file, key, read, entry });
    }),
  );
  if (found.length > 0) {
    const stale = await checksOf(db).check([...new Set(found.map((f) => f.entry.snapshot))]);
    for (const { file, key, read, entry } of found) {
      if (stale.has(entry.snapshot)) {
        kept.forget(db, key, read);
        continue;
      }
      kept.use(db, key, read);
      result.set(file.id, entry.colours);
    }
  }
  const missing = files.filter((file) => !result.has(file.id));
  if (missing.length === 0) return result;
  const read = readColours(db, actor, missing.map((f) => f.id));
  for (const file of missing) kept.keep(db, keyOf(file, actor), read.then((entries) => entries.get(file.id)!));
  for (const [id, entry] of await read) result.set(id, entry.colours);
  return result;
}
