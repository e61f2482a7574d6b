import { and, desc, eq, sql } from 'drizzle-orm';
import type { RegisterSyncRunDto } from '@portal/contracts';
import { EP_APPLICATION_DIGITS_SQL, EP_PUBLICATION_DIGITS_SQL, registerSyncRuns, type Database, type Executor } from '@portal/db';
import type { JobContext } from '@portal/queue';
import { epNumberOf, RegisterError, RegisterQuotaExhaustedError, RegisterThrottledError, RegisterUnauthorisedError, type EpNumber, type EpRegisterRecord, type LegalEventsRecord, type RegisterSource } from '@portal/registers';
import { writeLedger, PATENT_KEY_SQL, type LedgerChange } from '../ledger/write.ts';
import { recordState, type LedgerState } from '../ledger/states.ts';
import { rowsOf } from '../patents/rows.ts';
import { leaseOf, type RunKind, type RunPorts } from '../run-kind.ts';

/*
 * The register sync (issue 29 §3, decision 196). One run walks the EP/UP patents of the portfolio in patent-key order,
 * a batch at a time; each patent is read (EP register, then its legal events) and committed on its own: the day's key
 * (`register_syncs`), the observations, the ledger changes and the discrepancies, and the run's cursor and counts, in
 * one transaction. A killed run resumes after its cursor; a patent already read today is not read again.
 */

export type RegisterSyncRow = typeof registerSyncRuns.$inferSelect;

export interface RegisterSyncDeps extends RunPorts {
  /** The register to read; null or absent: OPS credentials are not configured and a run ends saying so. */
  registerSource?: RegisterSource | null;
  /** Patents per batch (tests use small ones). */
  registerSyncBatch?: number;
  /** Waits before a call until the source's pacing allows it (tests pass a no-op). */
  sleep?: (ms: number) => Promise<void>;
}

export const REGISTER_SYNC_BATCH = 25;
/** The longest the run waits for the source's pacing between two calls; longer asks pause the run instead. */
export const REGISTER_PACING_MAX_WAIT_MS = 30_000;
/** The reason a run did nothing: no OPS credentials. */
export const REGISTER_SYNC_DISABLED = 'ops_not_configured';
/** The holder a paused run's lease names: nobody takes the run until `paused_until`. */
export const PAUSED_HOLDER = 'paused';

/** EP file states the portal reads as "the right is gone". */
const DEAD_STATES = new Set(['withdrawn', 'refused', 'revoked', 'lapsed']);

export const toRegisterSyncDto = (row: RegisterSyncRow): RegisterSyncRunDto => ({
  _id: row.id,
  trigger: row.trigger,
  day: row.day,
  state: row.state,
  error_code: row.errorCode,
  total: row.total,
  done: row.done,
  found: row.found,
  not_found: row.notFound,
  failed: row.failed,
  discrepancies: row.discrepancies,
  paused_until: row.pausedUntil?.toISOString() ?? null,
  pause_reason: row.pauseReason,
  disabled: row.disabled,
  created: row.createdAt.toISOString(),
  finished: row.finishedAt?.toISOString() ?? null,
});

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/**
 * The schedule's tick: the run in progress (to resume it), else a new run for today unless one was made today.
 * Returns the run to process, or null (today's run is finished).
 */
export async function openScheduledRun(db: Database, now: Date): Promise<string | null> {
  const [current] = await db.select({ id: registerSyncRuns.id }).from(registerSyncRuns).where(eq(registerSyncRuns.state, 'in_progress')).orderBy(desc(registerSyncRuns.createdAt)).limit(1);
  if (current) return current.id;
  const day = dayOf(now);
  const [today] = await db.select({ id: registerSyncRuns.id }).from(registerSyncRuns).where(eq(registerSyncRuns.day, day)).limit(1);
  if (today) return null;
  const [created] = await db.insert(registerSyncRuns).values({ trigger: 'schedule', day }).returning({ id: registerSyncRuns.id });
  return created!.id;
}

/** An admin's "sync now": the run in progress if there is one (not started twice), else a new one. */
export async function requestRegisterSync(db: Database, userId: string, now: Date): Promise<{ row: RegisterSyncRow; created: boolean }> {
  const [current] = await db.select().from(registerSyncRuns).where(eq(registerSyncRuns.state, 'in_progress')).orderBy(desc(registerSyncRuns.createdAt)).limit(1);
  if (current) return { row: current, created: false };
  const [row] = await db.insert(registerSyncRuns).values({ trigger: 'admin', requestedBy: userId, day: dayOf(now) }).returning();
  return { row: row!, created: true };
}

interface PatentRow {
  patent_key: string;
  publication: string | null;
  application: string | null;
}

interface RecordRow {
  id: string;
  quantieme: number | null;
  date_echeance: string | null;
  instruction_id: number | null;
  instruction_status: string;
  date_paiement_office: string | null;
  date_acquit: string | null;
  ledger: LedgerState | null;
}

export type Discrepancy = { year: number; kind: 'register_paid' | 'register_lapsed' | 'instruction_on_lapsed'; recordId: string; portalState: LedgerState; on: string | null; code: string; url: string };

const portfolioFilter = sql`pays in ('EP', 'UP')`;

async function countPatents(db: Executor): Promise<number> {
  const [row] = rowsOf<{ n: number }>(await db.execute(sql`select count(distinct ${PATENT_KEY_SQL})::int as n from patent_records where ${portfolioFilter}`));
  return row?.n ?? 0;
}

async function nextBatch(db: Executor, cursor: string | null, limit: number): Promise<PatentRow[]> {
  return rowsOf<PatentRow>(
    await db.execute(sql`
      select patent_key, max(numero_publication) as publication, max(numero_depot) as application
      from (select ${PATENT_KEY_SQL} as patent_key, numero_publication, numero_depot from patent_records where ${portfolioFilter}) p
      where ${cursor === null ? sql`true` : sql`patent_key > ${cursor}`}
      group by patent_key order by patent_key limit ${limit}`),
  );
}

/** The number the register is asked about: the publication number, else the application's. */
export function numberOfPatent(patent: { publication: string | null; application: string | null }): EpNumber | null {
  return (patent.publication ? epNumberOf(patent.publication, 'publication') : null) ?? (patent.application ? epNumberOf(patent.application, 'application') : null);
}

/**
 * What the register says of one office's annuities: the renewal fees it records (by year) and the right gone there
 * since a day. The EP file's own (RFEE steps, the file withdrawn / refused / revoked / lapsed) or a national office's
 * (INPADOC `PGFP` / `PLFP` fees, `PG25` lapse in that state).
 */
export interface RegisterView {
  renewals: ReadonlyArray<{ year: number; paidOn: string | null; code: string; url: string }>;
  lapse: { since: string | null; code: string; url: string } | null;
}

/** The EP file's view: its renewal fees, and its lapse when the file is gone. */
export function epViewOf(register: EpRegisterRecord): RegisterView {
  return {
    renewals: register.renewals,
    lapse: DEAD_STATES.has(register.status.state) ? { since: register.status.since, code: `status:${register.status.state}`, url: register.url } : null,
  };
}

/**
 * The national offices' views from the INPADOC legal events: per state, the annual fees paid (`PGFP`, `PLFP`; an
 * event without a year of fee payment says nothing of a year and is left out) and the lapse (`PG25`; several: the
 * earliest). Keyed by the state's code.
 */
export function nationalViewsOf(legal: LegalEventsRecord | null): Map<string, RegisterView> {
  const views = new Map<string, { renewals: Array<RegisterView['renewals'][number]>; lapse: RegisterView['lapse'] }>();
  const viewOf = (country: string) => {
    let view = views.get(country);
    if (!view) views.set(country, (view = { renewals: [], lapse: null }));
    return view;
  };
  for (const event of legal?.events ?? []) {
    if (event.country === 'EP' || event.country === 'UP') continue;
    if (event.kind === 'annual_fee_paid') {
      if (event.year === null) continue;
      const view = viewOf(event.country);
      if (!view.renewals.some((r) => r.year === event.year)) view.renewals.push({ year: event.year, paidOn: event.paidOn ?? event.publishedOn, code: event.code, url: event.url });
    } else {
      const view = viewOf(event.country);
      const since = event.effectiveOn ?? event.publishedOn;
      if (!view.lapse || (since !== null && (view.lapse.since === null || since < view.lapse.since))) view.lapse = { since, code: event.code, url: event.url };
    }
  }
  return views;
}

/**
 * What the register's answer means for the portal's years (the records of the patent), decision 196:
 * - a renewal fee the EPO records for a year the portal has: `ordered`/`paid` become `confirmed` on the ledger; a
 *   year the portal holds unpaid (`due`, `instructed`, `abandoned`, `lapsed`) is a discrepancy `register_paid`;
 * - the EP file withdrawn, refused, revoked or lapsed (since a date): each year due from that date on is `lapsed` on
 *   the ledger when the portal gave it up (`abandoned`); an instruction there (`instructed`, `ordered`) is a
 *   discrepancy `instruction_on_lapsed`; a year the portal keeps live (`due`, `paid`, `confirmed`) is `register_lapsed`.
 */
export function reconcile(records: readonly RecordRow[], register: EpRegisterRecord | null): { changes: LedgerChange[]; discrepancies: Discrepancy[] } {
  return register ? reconcileView(records, epViewOf(register)) : { changes: [], discrepancies: [] };
}

/**
 * The rules of `reconcile` for any office's view (decision 214 applies them to the national patents an EP patent was
 * validated as, with the national office's INPADOC events): the ledger moves only where the portal and the register
 * agree, every contradiction is a discrepancy.
 */
export function reconcileView(records: readonly RecordRow[], view: RegisterView): { changes: LedgerChange[]; discrepancies: Discrepancy[] } {
  const changes: LedgerChange[] = [];
  const discrepancies: Discrepancy[] = [];
  const years = new Map<number, { record: RecordRow; state: LedgerState }>();
  for (const record of records) {
    if (record.quantieme === null || years.has(record.quantieme)) continue;
    const state =
      record.ledger ??
      recordState({ instructionId: record.instruction_id, instructionStatus: record.instruction_status, datePaiementOffice: record.date_paiement_office, dateAcquit: record.date_acquit });
    years.set(record.quantieme, { record, state });
  }
  for (const fee of view.renewals) {
    const year = years.get(fee.year);
    if (!year) continue;
    if (year.state === 'ordered' || year.state === 'paid') {
      changes.push({ recordId: year.record.id, annuityYear: fee.year, event: { kind: 'register', state: 'confirmed' } });
      year.state = 'confirmed';
    } else if (year.state !== 'confirmed') {
      discrepancies.push({ year: fee.year, kind: 'register_paid', recordId: year.record.id, portalState: year.state, on: fee.paidOn, code: fee.code, url: fee.url });
    }
  }
  if (view.lapse) {
    const { since, code, url } = view.lapse;
    for (const [number, year] of years) {
      if (since !== null && year.record.date_echeance !== null && year.record.date_echeance < since) continue;
      if (year.state === 'lapsed') continue;
      if (year.state === 'abandoned') {
        changes.push({ recordId: year.record.id, annuityYear: number, event: { kind: 'register', state: 'lapsed' } });
        year.state = 'lapsed';
      } else {
        const kind = year.state === 'instructed' || year.state === 'ordered' ? 'instruction_on_lapsed' : 'register_lapsed';
        discrepancies.push({ year: number, kind, recordId: year.record.id, portalState: year.state, on: since, code, url });
      }
    }
  }
  return { changes, discrepancies };
}

type Observation = { kind: 'paid' | 'lapsed' | 'unitary'; country: string; year: number; on: string | null; code: string; detail: string | null; url: string };

function observationsOf(register: EpRegisterRecord | null, legal: LegalEventsRecord | null): Observation[] {
  const seen = new Map<string, Observation>();
  const add = (o: Observation) => seen.set(`${o.kind}|${o.country}|${o.year}`, o);
  if (register) {
    for (const fee of register.renewals) add({ kind: 'paid', country: 'EP', year: fee.year, on: fee.paidOn, code: fee.code, detail: null, url: fee.url });
    if (DEAD_STATES.has(register.status.state)) add({ kind: 'lapsed', country: 'EP', year: 0, on: register.status.since, code: `status:${register.status.state}`, detail: register.status.text, url: register.url });
    if (register.unitary.state !== 'none') add({ kind: 'unitary', country: 'UP', year: 0, on: register.unitary.since, code: `unitary:${register.unitary.state}`, detail: register.unitary.text, url: register.url });
  }
  for (const event of legal?.events ?? []) {
    if (event.kind === 'annual_fee_paid') add({ kind: 'paid', country: event.country, year: event.year ?? 0, on: event.paidOn ?? event.publishedOn, code: event.code, detail: null, url: event.url });
    else add({ kind: 'lapsed', country: event.country, year: 0, on: event.effectiveOn ?? event.publishedOn, code: event.code, detail: event.reason, url: event.url });
  }
  return [...seen.values()];
}

type Outcome = 'found' | 'not_found' | 'no_number' | 'failed';

/** Stores one patent's read: the day's key (none taken: another run read it today, nothing is written), observations, ledger, discrepancies, the run's cursor. */
async function commitPatent(
  tx: Executor,
  run: { id: string; day: string; holder: string; kind: RunKind },
  patentKey: string,
  outcome: Outcome,
  register: EpRegisterRecord | null,
  legal: LegalEventsRecord | null,
  at: Date,
  asked: EpNumber | null = null,
): Promise<{ written: boolean; open: number }> {
  const taken = rowsOf(
    await tx.execute(sql`insert into register_syncs (patent_key, day, run_id, outcome) values (${patentKey}, ${run.day}::date, ${run.id}::uuid, ${outcome}) on conflict do nothing returning patent_key`),
  );
  let open = 0;
  if (taken.length > 0 && outcome === 'found') {
    const observations = observationsOf(register, legal);
    await tx.execute(sql`delete from register_observations where patent_key = ${patentKey}`);
    if (observations.length > 0) {
      const p = <T>(values: T[]) => sql.param(values);
      await tx.execute(sql`
        insert into register_observations (patent_key, kind, country, annuity_year, on_date, code, detail, url, observed_at)
        select ${patentKey}, * , ${at.toISOString()}::timestamptz from unnest(${p(observations.map((o) => o.kind))}::text[], ${p(observations.map((o) => o.country))}::text[],
          ${p(observations.map((o) => o.year))}::integer[], ${p(observations.map((o) => o.on))}::date[], ${p(observations.map((o) => o.code))}::text[],
          ${p(observations.map((o) => o.detail))}::text[], ${p(observations.map((o) => o.url))}::text[])`);
    }
    const records = rowsOf<RecordRow>(
      await tx.execute(sql`
        select r.id, r.quantieme, r.date_echeance::text, r.instruction_id, r.instruction_status, r.date_paiement_office::text, r.date_acquit::text, l.state as ledger
        from patent_records r left join patent_ledger l on l.patent_key = ${patentKey} and l.annuity_year = r.quantieme
        where coalesce(nullif(r.idbrevet, ''), 'record:' || r.id::text) = ${patentKey}
        order by r.quantieme, r.id`),
    );
    const { changes, discrepancies } = reconcile(records, register);
    if (changes.length > 0) await writeLedger(tx, changes, { at });
    open = await storeDiscrepancies(tx, patentKey, discrepancies, at);
    open += await commitNational(tx, asked, register, legal, at);
  }
  const counts =
    outcome === 'found' ? { found: sql`${registerSyncRuns.found} + 1` } : outcome === 'failed' ? { failed: sql`${registerSyncRuns.failed} + 1` } : { notFound: sql`${registerSyncRuns.notFound} + 1` };
  const renewed = await run.kind.renew(tx, run.id, run.holder, at, {
    cursor: patentKey,
    done: sql`${registerSyncRuns.done} + 1`,
    discrepancies: sql`${registerSyncRuns.discrepancies} + ${open}`,
    ...(taken.length > 0 ? counts : {}),
    updatedAt: at,
    pausedUntil: null,
    pauseReason: null,
  });
  // The lease went to another execution: nothing of this patent is kept (it commits the patent itself).
  if (!renewed) throw new LeaseLostError(run.id);
  return { written: taken.length > 0, open };
}

interface NationalRecordRow extends RecordRow {
  patent_key: string;
  pays: string;
}

/**
 * The national patents an EP patent was validated as (decision 214): the portfolio's records of another office than
 * EP/UP whose publication number is the EP publication (`EP1000000`, `EP 1 000 000 B1`) or whose application number is
 * the EP application (`EP99203729.4`), found by the two partial expression indexes of `patent_records`. Each national
 * patent of a state the legal events speak of is reconciled with that state's view (`PGFP` / `PLFP` fees, `PG25`
 * lapse) by the EP rules, its ledger written and its discrepancies stored under its own patent key. Returns how many
 * discrepancies are open.
 */
async function commitNational(tx: Executor, asked: EpNumber | null, register: EpRegisterRecord | null, legal: LegalEventsRecord | null, at: Date): Promise<number> {
  const views = nationalViewsOf(legal);
  if (views.size === 0) return 0;
  const publications = [...new Set([asked?.kind === 'publication' ? asked.digits : null, register?.publication].filter((d): d is string => typeof d === 'string' && /^\d{7}$/.test(d)))];
  const applications = [...new Set([asked?.kind === 'application' ? asked.digits : null, register?.application, legal?.application].filter((d): d is string => typeof d === 'string' && /^\d{8}$/.test(d)))];
  if (publications.length === 0 && applications.length === 0) return 0;
  const records = rowsOf<NationalRecordRow>(
    await tx.execute(sql`
      select r.id, r.pays, ${PATENT_KEY_SQL} as patent_key, r.quantieme, r.date_echeance::text, r.instruction_id, r.instruction_status,
        r.date_paiement_office::text, r.date_acquit::text, l.state as ledger
      from (
        select * from patent_records where ${EP_PUBLICATION_DIGITS_SQL} = any(${sql.param(publications)}::text[]) and pays not in ('EP', 'UP')
        union
        select * from patent_records where ${EP_APPLICATION_DIGITS_SQL} = any(${sql.param(applications)}::text[]) and pays not in ('EP', 'UP')
      ) r
      left join patent_ledger l on l.patent_key = coalesce(nullif(r.idbrevet, ''), 'record:' || r.id::text) and l.annuity_year = r.quantieme
      where r.pays = any(${sql.param([...views.keys()])}::text[])
      order by patent_key, r.quantieme, r.id`),
  );
  const patents = new Map<string, NationalRecordRow[]>();
  for (const record of records) patents.set(record.patent_key, [...(patents.get(record.patent_key) ?? []), record]);
  let open = 0;
  for (const [key, rows] of patents) {
    const { changes, discrepancies } = reconcileView(rows, views.get(rows[0]!.pays)!);
    if (changes.length > 0) await writeLedger(tx, changes, { at });
    open += await storeDiscrepancies(tx, key, discrepancies, at);
  }
  return open;
}

class LeaseLostError extends Error {
  constructor(runId: string) {
    super(`register sync run ${runId}: lease lost`);
  }
}

/**
 * Writes the discrepancies found for a patent: new ones open; one kept with a note stays kept while the register says
 * the same (its fingerprint), and opens again when it says something else. Those no longer found (the portal and the
 * register agree now) go, unless accepted (kept as the trail of the staff's decision). Returns how many are open.
 */
async function storeDiscrepancies(tx: Executor, patentKey: string, found: readonly Discrepancy[], at: Date): Promise<number> {
  const keys = found.map((d) => `${d.year}|${d.kind}`);
  await tx.execute(sql`
    delete from register_discrepancies
    where patent_key = ${patentKey} and status <> 'accepted' and not ((annuity_year::text || '|' || kind) = any(${sql.param(keys)}::text[]))`);
  let open = 0;
  for (const d of found) {
    const fingerprint = `${d.code}|${d.on ?? ''}`;
    const [row] = rowsOf<{ status: string }>(
      await tx.execute(sql`
        insert into register_discrepancies (patent_key, annuity_year, kind, record_id, portal_state, register_on, register_code, register_url, fingerprint, created_at, updated_at)
        values (${patentKey}, ${d.year}, ${d.kind}, ${d.recordId}::uuid, ${d.portalState}, ${d.on}::date, ${d.code}, ${d.url}, ${fingerprint}, ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz)
        on conflict (patent_key, annuity_year, kind) do update set
          record_id = excluded.record_id, portal_state = excluded.portal_state, register_on = excluded.register_on, register_code = excluded.register_code,
          register_url = excluded.register_url, fingerprint = excluded.fingerprint, updated_at = excluded.updated_at,
          status = case when register_discrepancies.status = 'kept' and register_discrepancies.fingerprint = excluded.fingerprint then 'kept' else 'open' end
        returning status`),
    );
    if (row?.status === 'open') open++;
  }
  return open;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The run kind's processor: under the run's lease, from the cursor to the end of the portfolio. Without a source the
 * run ends Done, `disabled`. A throttled or over-quota answer pauses the run: `paused_until` and a lease held by
 * nobody until then (the sweep and the schedule's tick take it again after), and the job ends, so nothing retries
 * in a loop. Refused credentials end the run in Error (`register_unauthorised`).
 */
export function createRegisterSyncProcessor(deps: RegisterSyncDeps, kind: RunKind) {
  const now = () => deps.clock?.now() ?? new Date();
  const sleep = deps.sleep ?? defaultSleep;
  const batchSize = deps.registerSyncBatch ?? REGISTER_SYNC_BATCH;
  const publish = (row: RegisterSyncRow | undefined, transition = false) => {
    if (row) kind.publish(deps.realtime, row, { transition });
  };

  return async ({ runId }: { runId: string }, ctx: JobContext) => {
    const holder = leaseOf(ctx)?.holder;
    if (!holder) throw new Error('the register sync runs under its run kind lease');
    const run = (await kind.load(deps.db, runId)) as RegisterSyncRow | undefined;
    if (!run || run.state !== 'in_progress') return;
    const source = deps.registerSource ?? null;
    if (!source) {
      publish((await kind.done(deps.db, runId, holder, now(), { disabled: REGISTER_SYNC_DISABLED, total: 0 })) as RegisterSyncRow | undefined, true);
      deps.logger.info({ event: 'register_sync_disabled', runId }, 'register sync: OPS credentials are not configured');
      return;
    }
    const total = await countPatents(deps.db);
    // This execution's claim, as every run kind records it: when it started, and one more attempt (the sweep reads a
    // run never started as waiting; the fault suite waits for `started_at` and counts claims by `attempts`).
    const claimed = { total, startedAt: now(), attempts: sql`${registerSyncRuns.attempts} + 1`, pausedUntil: null, pauseReason: null, updatedAt: now() };
    publish((await kind.renew(deps.db, runId, holder, now(), claimed)) as RegisterSyncRow | undefined, true);
    let cursor = run.cursor;
    const context = { id: runId, day: run.day, holder, kind };

    for (;;) {
      const batch = await nextBatch(deps.db, cursor, batchSize);
      if (batch.length === 0) break;
      for (const patent of batch) {
        if (ctx.signal.aborted) throw ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error('register sync aborted');
        const [already] = rowsOf(await deps.db.execute(sql`select 1 as x from register_syncs where patent_key = ${patent.patent_key} and day = ${run.day}::date`));
        let outcome: Outcome = 'found';
        let register: EpRegisterRecord | null = null;
        let legal: LegalEventsRecord | null = null;
        if (!already) {
          const number = numberOfPatent(patent);
          if (!number) outcome = 'no_number';
          else {
            try {
              await pace(source, now, sleep);
              const ep = await source.readEpRegister(number, ctx.signal);
              if (!ep.found) outcome = 'not_found';
              else {
                register = ep.record;
                await pace(source, now, sleep);
                const events = await source.readLegalEvents(number, ctx.signal);
                legal = events.found ? events.record : null;
              }
            } catch (error) {
              if (error instanceof RegisterThrottledError || error instanceof RegisterQuotaExhaustedError) {
                await pause(deps, kind, runId, holder, now(), error.retryAfterMs, error instanceof RegisterQuotaExhaustedError ? `quota_${error.quota}` : 'throttled', publish);
                return;
              }
              if (error instanceof RegisterUnauthorisedError) {
                await kind.fail(deps, runId, 'register_unauthorised');
                return;
              }
              if (!(error instanceof RegisterError)) throw error;
              // Unavailable, malformed, refused input: this patent is skipped for the day, the run goes on.
              deps.logger.warn({ event: 'register_read_failed', runId, code: error.code }, 'register read failed for one patent');
              outcome = 'failed';
            }
          }
        }
        const at = now();
        await deps.db.transaction((tx) => commitPatent(tx, context, patent.patent_key, outcome, register, legal, at, numberOfPatent(patent)));
        cursor = patent.patent_key;
        publish((await kind.load(deps.db, runId)) as RegisterSyncRow | undefined);
      }
    }
    const finished = (await kind.done(deps.db, runId, holder, now(), { cursor })) as RegisterSyncRow | undefined;
    publish(finished, true);
    deps.logger.info({ event: 'register_sync_done', runId, done: finished?.done, found: finished?.found, discrepancies: finished?.discrepancies }, 'register sync done');
  };
}

async function pace(source: RegisterSource, now: () => Date, sleep: (ms: number) => Promise<void>): Promise<void> {
  const wait = source.pacing().nextCallAt.getTime() - now().getTime();
  if (wait > 0) await sleep(Math.min(wait, REGISTER_PACING_MAX_WAIT_MS));
}

async function pause(
  deps: RegisterSyncDeps,
  kind: RunKind,
  runId: string,
  holder: string,
  at: Date,
  retryAfterMs: number,
  reason: string,
  publish: (row: RegisterSyncRow | undefined, transition?: boolean) => void,
): Promise<void> {
  const until = new Date(at.getTime() + retryAfterMs);
  const [row] = await (deps.db)
    .update(registerSyncRuns)
    .set({ pausedUntil: until, pauseReason: reason, leaseHolder: PAUSED_HOLDER, leaseExpiresAt: until, updatedAt: at })
    .where(and(eq(registerSyncRuns.id, runId), eq(registerSyncRuns.leaseHolder, holder), eq(registerSyncRuns.state, 'in_progress')))
    .returning();
  deps.logger.info({ event: 'register_sync_paused', runId, until: until.toISOString(), reason }, 'register sync paused by the register');
  publish(row, true);
}
