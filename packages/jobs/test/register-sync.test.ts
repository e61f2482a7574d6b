import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cabinets, patentLedger, patentLedgerEvents, patentRecords, registerDiscrepancies, registerObservations, registerSyncRuns, registerSyncs, type DatabaseHandle } from '@portal/db';
import { openTestDatabase, testDatabaseKinds } from '@portal/db/testing';
import { createLogger } from '@portal/logger';
import { createInProcessPublisher } from '@portal/realtime';
import { OpsRegisterSource, type RegisterSource } from '@portal/registers';
import { FakeOps, fixture, RECORDED_HEADERS } from '../../registers/test/ops-server.ts';
import { registerSyncJob, registerSyncRunKind } from '../src/definitions/register-sync.ts';
import { PAUSED_HOLDER, REGISTER_SYNC_DISABLED, requestRegisterSync, type RegisterSyncDeps } from '../src/registers/sync.ts';
import { createRegisterSyncProcessor } from '../src/registers/sync.ts';
import type { RunKind } from '../src/run-kind.ts';
import { NOT_STARTED_AFTER_MS, SILENT_RUN_AFTER_MS } from '../src/sweep.ts';

/*
 * Issue 29 §3: the register sync over real HTTP (a local OPS serving the recorded answers of packages/registers),
 * on PGlite and PostgreSQL. Four EP patents and one FR:
 *  - P-A, EP 2 400 812 B1 (the recorded register: granted, renewal fees of years 3 to 10 paid, 10th on 2019-06-24):
 *    year 10 paid by the back office → `confirmed`; year 9 still due → discrepancy `register_paid`; year 11 untouched;
 *  - P-B, EP1000000: the recorded register answer with its latest status made "The patent has been revoked" on
 *    2023-03-01 (derived in this file, below); year 14 (due 2024-06-30) abandoned → `lapsed`; year 15 (due 2025-06-30)
 *    instructed → `instruction_on_lapsed`; year 13 (due 2022-06-30, before the revocation) untouched;
 *  - P-C, EP3000000: unknown to the register (404 SERVER.EntityNotFound) → not found;
 *  - P-D, FR: not an EP/UP patent, never read.
 */

const STEPS = (n: string) => `GET /3.2/rest-services/register/publication/epodoc/EP${n}/procedural-steps`;
const UPP = (n: string) => `GET /3.2/rest-services/register/publication/epodoc/EP${n}/upp`;
const LEGAL = (n: string) => `GET /3.2/rest-services/legal/publication/epodoc/EP${n}`;
const xml = (body: string) => ({ status: 200, headers: RECORDED_HEADERS, body });
const REVOKED_UPP = fixture('register-upp-EP2400812.xml').replace(
  '<ns3:ep-patent-status change-date="20201002" status-code="7">No opposition filed within time limit</ns3:ep-patent-status>',
  '<ns3:ep-patent-status change-date="20230301" status-code="7">The patent has been revoked</ns3:ep-patent-status>',
);
const NOT_FOUND = { status: 404, headers: { 'Content-Type': 'application/xml' }, body: fixture('fault-entity-not-found.xml') };

describe.each(testDatabaseKinds())('register sync (%s)', (kind) => {
  let handle: DatabaseHandle;
  let cabinetId: string;
  let ops: FakeOps;
  let clock: number;
  let prefix = '';
  let round = 0;
  const logger = createLogger({ level: 'silent', name: 'register-sync-test' });
  const published: Array<{ event: string; done: number; paused_until: string | null }> = [];

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    const [cabinet] = await handle.db.insert(cabinets).values({ name: `Register ${kind}` }).returning();
    cabinetId = cabinet!.id;
  });
  afterAll(async () => {
    await handle?.close();
  });

  beforeEach(async () => {
    round++;
    // Each test its own portfolio: earlier tests' patents are moved out of the EPC states (no event names US; as FR they would be EP1000000's French validation, decision 214).
    await handle.db.execute(sql`update patent_records set pays = 'US'`);
    await handle.db.execute(sql`update register_sync_runs set state = 'Done' where state = 'in_progress'`);
    prefix = `R${round}-`;
    clock = Date.UTC(2026, 10, 28 + round, 3, 0, 0);
    published.length = 0;
    ops = await new FakeOps().tokens().start();
    ops
      .route(STEPS('2400812'), xml(fixture('register-procedural-steps-EP2400812.xml')))
      .route(UPP('2400812'), xml(fixture('register-upp-EP2400812.xml')))
      .route(LEGAL('2400812'), NOT_FOUND)
      .route(STEPS('1000000'), xml(fixture('register-procedural-steps-EP2400812.xml')))
      .route(UPP('1000000'), xml(REVOKED_UPP))
      .route(LEGAL('1000000'), xml(fixture('legal-EP1000000.xml')))
      .route(STEPS('3000000'), NOT_FOUND);
    const record = (values: Partial<typeof patentRecords.$inferInsert>) =>
      handle.db.insert(patentRecords).values({ idagenda: `${prefix}${values.idbrevet}-${values.quantieme}`, cabinetId, clientCode: 'C1', pays: 'EP', ...values, idbrevet: `${prefix}${values.idbrevet}` });
    await record({ idbrevet: 'P-A', numeroPublication: 'EP 2 400 812 B1', referenceClient: 'A-REF', quantieme: 9, dateEcheance: '2018-06-30' });
    await record({ idbrevet: 'P-A', numeroPublication: 'EP 2 400 812 B1', referenceClient: 'A-REF', quantieme: 10, dateEcheance: '2019-06-30', datePaiementOffice: '2019-06-20' });
    await record({ idbrevet: 'P-A', numeroPublication: 'EP 2 400 812 B1', referenceClient: 'A-REF', quantieme: 11, dateEcheance: '2020-06-30' });
    await record({ idbrevet: 'P-B', numeroPublication: 'EP1000000', quantieme: 13, dateEcheance: '2022-06-30' });
    await record({ idbrevet: 'P-B', numeroPublication: 'EP1000000', quantieme: 14, dateEcheance: '2024-06-30', instructionId: 2 });
    await record({ idbrevet: 'P-B', numeroPublication: 'EP1000000', quantieme: 15, dateEcheance: '2025-06-30', instructionId: 1 });
    await record({ idbrevet: 'P-C', numeroDepot: 'EP 3000000', numeroPublication: 'EP3000000', quantieme: 5, dateEcheance: '2026-06-30' });
    await record({ idbrevet: 'P-D', pays: 'FR', numeroPublication: 'FR3000001', quantieme: 5, dateEcheance: '2026-06-30' });
  });
  afterEach(async () => {
    await ops.stop();
  });

  const source = () => new OpsRegisterSource({ consumerKey: 'key', consumerSecret: 'secret', baseUrl: ops.url, now: () => clock });
  const realtime = () => {
    const publisher = createInProcessPublisher();
    const loose = publisher as unknown as { toAdmins: (event: string, dto: { done: number; paused_until: string | null }) => void };
    loose.toAdmins = (event, dto) => published.push({ event, done: dto.done, paused_until: dto.paused_until });
    return publisher;
  };
  const deps = (registerSource: RegisterSource | null, extra: Partial<RegisterSyncDeps> = {}): RegisterSyncDeps => ({
    db: handle.db,
    realtime: realtime(),
    logger,
    clock: { now: () => new Date(clock) },
    registerSource,
    registerSyncBatch: 2,
    sleep: async () => {},
    ...extra,
  });
  const ctx = () => ({ jobId: 'test', attempt: 1, signal: new AbortController().signal, updateProgress: async () => {}, log: () => {} });
  /** One job of the queue's definition, as the inline driver and the BullMQ worker run it. */
  const runJob = (ports: RegisterSyncDeps, runId: string) => registerSyncJob.processor(ports)({ runId }, ctx());
  const newRun = async () => (await requestRegisterSync(handle.db, null as unknown as string, new Date(clock))).row.id;
  const runOf = async (id: string) => (await handle.db.select().from(registerSyncRuns).where(eq(registerSyncRuns.id, id)))[0]!;
  const key = (k: string) => `${prefix}${k}`;
  const yearOf = async (k: string, year: number) => (await handle.db.select().from(patentLedger).where(sql`${patentLedger.patentKey} = ${key(k)} and ${patentLedger.annuityYear} = ${year}`))[0];
  const discrepanciesOf = async () =>
    (await handle.db.select().from(registerDiscrepancies).where(sql`${registerDiscrepancies.patentKey} like ${prefix + '%'}`).orderBy(asc(registerDiscrepancies.patentKey), asc(registerDiscrepancies.annuityYear))).map(
      (d) => [d.patentKey.slice(prefix.length), d.annuityYear, d.kind, d.portalState, d.registerOn, d.status],
    );
  const registerCalls = (n: string) => ops.count(STEPS(n)) + ops.count(UPP(n)) + ops.count(LEGAL(n));

  it('end to end: each EP patent read once, fees confirmed, lapses written, discrepancies found, progress published', async () => {
    const id = await newRun();
    await runJob(deps(source()), id);
    const run = await runOf(id);
    expect(run).toMatchObject({ state: 'Done', total: 3, done: 3, found: 2, notFound: 1, failed: 0, discrepancies: 2, cursor: key('P-C'), leaseHolder: null });
    // Three calls per patent found (steps, upp, legal), one for the unknown one; the FR patent never read.
    expect([registerCalls('2400812'), registerCalls('1000000'), registerCalls('3000000')]).toEqual([3, 3, 1]);
    expect(ops.requests.filter((r) => r.path.includes('FR3000001'))).toHaveLength(0);

    expect(await yearOf('P-A', 10)).toMatchObject({ state: 'confirmed', source: 'register' });
    expect(await yearOf('P-B', 14)).toMatchObject({ state: 'lapsed', source: 'register' });
    expect(await yearOf('P-A', 11)).toBeUndefined();
    expect(await yearOf('P-B', 13)).toBeUndefined();
    const trail = await handle.db.select().from(patentLedgerEvents).where(sql`${patentLedgerEvents.patentKey} like ${prefix + '%'}`).orderBy(asc(patentLedgerEvents.patentKey));
    expect(trail.map((e) => [e.patentKey.slice(prefix.length), e.annuityYear, e.oldState, e.newState, e.source])).toEqual([
      ['P-A', 10, 'paid', 'confirmed', 'register'],
      ['P-B', 14, 'abandoned', 'lapsed', 'register'],
    ]);
    const copy = await handle.db.select({ q: patentRecords.quantieme, s: patentRecords.ledgerState }).from(patentRecords).where(eq(patentRecords.idbrevet, key('P-A'))).orderBy(asc(patentRecords.quantieme));
    expect(copy).toEqual([
      { q: 9, s: null },
      { q: 10, s: 'confirmed' },
      { q: 11, s: null },
    ]);

    expect(await discrepanciesOf()).toEqual([
      ['P-A', 9, 'register_paid', 'due', '2018-06-20', 'open'],
      ['P-B', 15, 'instruction_on_lapsed', 'instructed', '2023-03-01', 'open'],
    ]);
    const observed = await handle.db.select().from(registerObservations).where(eq(registerObservations.patentKey, key('P-B')));
    expect(observed.find((o) => o.kind === 'lapsed' && o.country === 'EP')).toMatchObject({ on: '2023-03-01', code: 'status:revoked', detail: 'The patent has been revoked' });
    expect(observed.find((o) => o.kind === 'paid' && o.country === 'GB')).toMatchObject({ annuityYear: 11, on: '2009-11-30', code: 'PGFP' });
    expect(observed.filter((o) => o.kind === 'lapsed' && o.code === 'PG25')).toHaveLength(19);
    expect(await handle.db.select().from(registerSyncs).where(sql`${registerSyncs.patentKey} like ${prefix + '%'}`)).toHaveLength(3);

    // Progress to the admins after each patent: 0 of 3 at the start, then 1, 2, 3.
    expect(published.every((p) => p.event === 'registers:sync:updated')).toBe(true);
    expect([...new Set(published.map((p) => p.done))]).toEqual([0, 1, 2, 3]);
  });

  it('a second run the same day reads nothing again; kept discrepancies stay hidden while the register says the same', async () => {
    await runJob(deps(source()), await newRun());
    const calls = ops.requests.length;
    await handle.db.execute(sql`update register_discrepancies set status = 'kept', note = 'paid late, receipt on file' where patent_key = ${key('P-A')}`);
    const second = await newRun();
    await runJob(deps(source()), second);
    expect(ops.requests.length).toBe(calls);
    expect(await runOf(second)).toMatchObject({ state: 'Done', done: 3, found: 0, notFound: 0 });
    // The next day it is read again: the same answer keeps the discrepancy kept.
    clock += 86_400_000;
    await runJob(deps(source()), await newRun());
    expect(registerCalls('2400812')).toBe(6);
    expect((await discrepanciesOf())[0]).toEqual(['P-A', 9, 'register_paid', 'due', '2018-06-20', 'kept']);
  });

  it('killed mid-batch: the next execution resumes after the last patent committed, and nothing is read or written twice', async () => {
    const id = await newRun();
    const real = source();
    let reads = 0;
    // The process dies during the second patent's read (after the first patent committed).
    const dying: RegisterSource = {
      id: 'dying',
      pacing: () => real.pacing(),
      readEpRegister: (n, signal) => (++reads === 2 ? Promise.reject(new Error('SIGKILL')) : real.readEpRegister(n, signal)),
      readLegalEvents: (n, signal) => real.readLegalEvents(n, signal),
    };
    await expect(runJob(deps(dying), id)).rejects.toThrow('SIGKILL');
    // Started and claimed once, as every run kind says (the fault suite waits for started_at and counts claims by attempts).
    expect(await runOf(id)).toMatchObject({ state: 'in_progress', done: 1, cursor: key('P-A'), leaseHolder: null, startedAt: expect.any(Date), attempts: 1 });
    expect(registerCalls('2400812')).toBe(3);

    await runJob(deps(source()), id);
    expect(await runOf(id)).toMatchObject({ state: 'Done', done: 3, found: 2, notFound: 1, attempts: 2 });
    expect([registerCalls('2400812'), registerCalls('1000000'), registerCalls('3000000')]).toEqual([3, 3, 1]);
    const events = await handle.db.select().from(patentLedgerEvents).where(sql`${patentLedgerEvents.patentKey} like ${prefix + '%'}`);
    expect(events).toHaveLength(2);
    expect(await handle.db.select().from(registerSyncs).where(sql`${registerSyncs.patentKey} like ${prefix + '%'}`)).toHaveLength(3);
  });

  it('a 429 pauses the run until Retry-After (lease held, job ended, no retry); a 403 quota pauses it too; then it resumes', async () => {
    ops.route(LEGAL('1000000'), (_request, index) =>
      index === 0 ? { status: 429, headers: { 'Retry-After': '30', 'X-Throttling-Control': 'busy (images=green:100, inpadoc=black:0, other=green:1000, retrieval=green:200, search=green:30)' }, body: '' } : xml(fixture('legal-EP1000000.xml')),
    );
    const id = await newRun();
    const register = source();
    await runJob(deps(register), id);
    const paused = await runOf(id);
    expect(paused).toMatchObject({ state: 'in_progress', done: 1, cursor: key('P-A'), pauseReason: 'throttled', leaseHolder: PAUSED_HOLDER });
    expect(paused.pausedUntil?.getTime()).toBe(clock + 30_000);
    expect(paused.leaseExpiresAt?.getTime()).toBe(clock + 30_000);
    expect(ops.count(LEGAL('1000000'))).toBe(1);
    expect(published.at(-1)?.paused_until).toBe(new Date(clock + 30_000).toISOString());
    // The sweep leaves a paused run alone until then, and takes it as soon as the pause is over (with the sweep's
    // own cutoffs: the run has been silent since the pause, 30 s, not SILENT_RUN_AFTER_MS).
    const sweepSees = async () => registerSyncRunKind.toEnqueue(handle.db, new Date(clock - NOT_STARTED_AFTER_MS), new Date(clock - SILENT_RUN_AFTER_MS), new Date(clock), 10);
    expect(await registerSyncRunKind.toEnqueue(handle.db, new Date(clock), new Date(clock), new Date(clock), 10)).not.toContain(id);
    clock += 29_000;
    expect(await sweepSees()).not.toContain(id);

    clock += 1_000;
    expect(await sweepSees()).toContain(id);
    await runJob(deps(register), id);
    expect(await runOf(id)).toMatchObject({ state: 'Done', done: 3, found: 2, pausedUntil: null, pauseReason: null });
    expect(ops.count(LEGAL('1000000'))).toBe(2);

    // A 403 over the weekly quota the next day: paused a day (no Retry-After), nothing more asked.
    clock += 86_400_000;
    ops.route(UPP('2400812'), { status: 403, headers: { 'Content-Type': 'application/xml', 'X-Rejection-Reason': 'RegisteredQuotaPerWeek' }, body: fixture('fault-fair-use-403.xml') });
    const next = await newRun();
    const before = ops.requests.length;
    await runJob(deps(source()), next);
    expect(await runOf(next)).toMatchObject({ state: 'in_progress', done: 0, pauseReason: 'quota_weekly' });
    expect(ops.requests.length - before).toBeLessThanOrEqual(3);
  });

  it('without OPS credentials a run ends at once, saying so, and asks nothing', async () => {
    const id = await newRun();
    await runJob(deps(null), id);
    expect(await runOf(id)).toMatchObject({ state: 'Done', disabled: REGISTER_SYNC_DISABLED, total: 0, done: 0 });
    expect(ops.requests).toHaveLength(0);
  });

  it('the schedule tick opens one run a day and resumes the one in progress', async () => {
    const ports = deps(source());
    const tick = () => registerSyncJob.processor(ports)({ runId: 'scheduled' }, ctx());
    await tick();
    const runs = await handle.db.select().from(registerSyncRuns).where(sql`${registerSyncRuns.day} = ${new Date(clock).toISOString().slice(0, 10)}::date`);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ trigger: 'schedule', state: 'Done', done: 3 });
    await tick();
    expect(await handle.db.select().from(registerSyncRuns).where(sql`${registerSyncRuns.day} = ${new Date(clock).toISOString().slice(0, 10)}::date`)).toHaveLength(1);
  });

  it('the kind processor refuses to run outside its lease', async () => {
    const processor = createRegisterSyncProcessor(deps(source()), registerSyncRunKind as unknown as RunKind);
    await expect(processor({ runId: await newRun() }, ctx())).rejects.toThrow('lease');
  });
});
