import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cabinets, patentLedger, patentLedgerEvents, patentRecords, registerDiscrepancies, registerSyncRuns, type DatabaseHandle } from '@portal/db';
import { openTestDatabase, testDatabaseKinds } from '@portal/db/testing';
import { createLogger } from '@portal/logger';
import { createInProcessPublisher } from '@portal/realtime';
import { OpsRegisterSource } from '@portal/registers';
import { FakeOps, fixture, RECORDED_HEADERS } from '../../registers/test/ops-server.ts';
import { registerSyncJob } from '../src/definitions/register-sync.ts';
import { requestRegisterSync, type RegisterSyncDeps } from '../src/registers/sync.ts';

/*
 * Issue 29 §3, decision 214: the national offices' INPADOC events written to the ledgers of the national patents an EP
 * patent was validated as, over real HTTP (a local OPS), on PGlite and PostgreSQL. The EP patent P-EP (EP1000000, the
 * recorded register of EP 2 400 812: granted, fees of years 3 to 10; the portfolio holds its year 13) has the legal events of
 * `legal-national-EP1000000.handwritten.xml`: PGFP DE year 7 (paid 2005-11-30), PG25 GB (effective 2006-11-08), PLFP FR
 * year 7. Its validations in the portfolio, each a national record naming the EP number:
 *  - N-DE (DE, "EP 1 000 000 B1"): year 7 paid by the back office → `confirmed`; year 8 untouched;
 *  - N-GB (GB, application "EP99203729.4"): year 6 (due before the lapse) untouched; year 8 abandoned → `lapsed`;
 *    year 9 instructed → discrepancy `instruction_on_lapsed`; year 10 due → `register_lapsed`;
 *  - N-FR (FR, "EP1000000"): year 7 due → discrepancy `register_paid` (PLFP);
 *  - N-FR2 (FR, "EP1000001", another EP) and N-NL (NL: no event there): untouched.
 */

const STEPS = (n: string) => `GET /3.2/rest-services/register/publication/epodoc/EP${n}/procedural-steps`;
const UPP = (n: string) => `GET /3.2/rest-services/register/publication/epodoc/EP${n}/upp`;
const LEGAL = (n: string) => `GET /3.2/rest-services/legal/publication/epodoc/EP${n}`;
const xml = (body: string) => ({ status: 200, headers: RECORDED_HEADERS, body });

describe.each(testDatabaseKinds())('register sync, national ledgers (%s)', (kind) => {
  let handle: DatabaseHandle;
  let cabinetId: string;
  let ops: FakeOps;
  let clock: number;
  let prefix = '';
  let round = 0;
  const logger = createLogger({ level: 'silent', name: 'register-sync-national-test' });

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    const [cabinet] = await handle.db.insert(cabinets).values({ name: `Register national ${kind}` }).returning();
    cabinetId = cabinet!.id;
  });
  afterAll(async () => {
    await handle?.close();
  });

  beforeEach(async () => {
    round++;
    // Each test its own portfolio: earlier tests' patents leave the EPC states (no event names US).
    await handle.db.execute(sql`update patent_records set pays = 'US'`);
    await handle.db.execute(sql`update register_sync_runs set state = 'Done' where state = 'in_progress'`);
    prefix = `N${round}-`;
    clock = Date.UTC(2026, 10, 28 + round, 3, 0, 0);
    ops = await new FakeOps().tokens().start();
    ops
      .route(STEPS('1000000'), xml(fixture('register-procedural-steps-EP2400812.xml')))
      .route(UPP('1000000'), xml(fixture('register-upp-EP2400812.xml')))
      .route(LEGAL('1000000'), xml(fixture('legal-national-EP1000000.handwritten.xml')));
    const record = (values: Partial<typeof patentRecords.$inferInsert>) =>
      handle.db.insert(patentRecords).values({ idagenda: `${prefix}${values.idbrevet}-${values.quantieme}`, cabinetId, clientCode: 'C1', pays: 'EP', ...values, idbrevet: `${prefix}${values.idbrevet}` });
    await record({ idbrevet: 'P-EP', numeroPublication: 'EP1000000', quantieme: 13, dateEcheance: '2011-11-30' });
    await record({ idbrevet: 'N-DE', pays: 'DE', origine: 'ep_validated', numeroPublication: 'EP 1 000 000 B1', quantieme: 7, dateEcheance: '2005-11-30', datePaiementOffice: '2005-11-20' });
    await record({ idbrevet: 'N-DE', pays: 'DE', origine: 'ep_validated', numeroPublication: 'EP 1 000 000 B1', quantieme: 8, dateEcheance: '2006-11-30' });
    await record({ idbrevet: 'N-GB', pays: 'GB', numeroDepot: 'EP99203729.4', quantieme: 6, dateEcheance: '2004-11-30' });
    await record({ idbrevet: 'N-GB', pays: 'GB', numeroDepot: 'EP99203729.4', quantieme: 8, dateEcheance: '2006-11-30', instructionId: 2 });
    await record({ idbrevet: 'N-GB', pays: 'GB', numeroDepot: 'EP99203729.4', quantieme: 9, dateEcheance: '2007-11-30', instructionId: 1 });
    await record({ idbrevet: 'N-GB', pays: 'GB', numeroDepot: 'EP99203729.4', quantieme: 10, dateEcheance: '2008-11-30' });
    await record({ idbrevet: 'N-FR', pays: 'FR', numeroPublication: 'EP1000000', quantieme: 7, dateEcheance: '2005-11-30' });
    await record({ idbrevet: 'N-FR2', pays: 'FR', numeroPublication: 'EP1000001', quantieme: 7, dateEcheance: '2005-11-30', datePaiementOffice: '2005-11-20' });
    await record({ idbrevet: 'N-NL', pays: 'NL', numeroPublication: 'EP1000000', quantieme: 7, dateEcheance: '2005-11-30', datePaiementOffice: '2005-11-20' });
  });
  afterEach(async () => {
    await ops.stop();
  });

  const deps = (): RegisterSyncDeps => ({
    db: handle.db,
    realtime: createInProcessPublisher(),
    logger,
    clock: { now: () => new Date(clock) },
    registerSource: new OpsRegisterSource({ consumerKey: 'key', consumerSecret: 'secret', baseUrl: ops.url, now: () => clock }),
    sleep: async () => {},
  });
  const ctx = () => ({ jobId: 'test', attempt: 1, signal: new AbortController().signal, updateProgress: async () => {}, log: () => {} });
  const sync = async () => {
    const id = (await requestRegisterSync(handle.db, null as unknown as string, new Date(clock))).row.id;
    await registerSyncJob.processor(deps())({ runId: id }, ctx());
    return id;
  };
  const key = (k: string) => `${prefix}${k}`;
  const ledgerOf = async () =>
    (await handle.db.select().from(patentLedger).where(sql`${patentLedger.patentKey} like ${prefix + '%'}`).orderBy(asc(patentLedger.patentKey), asc(patentLedger.annuityYear))).map((l) => [
      l.patentKey.slice(prefix.length),
      l.annuityYear,
      l.state,
      l.source,
    ]);
  const discrepanciesOf = async () =>
    (
      await handle.db
        .select({ d: registerDiscrepancies, pays: patentRecords.pays })
        .from(registerDiscrepancies)
        .leftJoin(patentRecords, eq(patentRecords.id, registerDiscrepancies.recordId))
        .where(sql`${registerDiscrepancies.patentKey} like ${prefix + '%'}`)
        .orderBy(asc(registerDiscrepancies.patentKey), asc(registerDiscrepancies.annuityYear))
    ).map(({ d, pays }) => [d.patentKey.slice(prefix.length), pays, d.annuityYear, d.kind, d.portalState, d.registerCode, d.registerOn, d.status]);

  it('PGFP confirms a paid DE year; PG25 lapses an abandoned GB year and is a discrepancy beside an instruction; PLFP on an unpaid FR year is a discrepancy', async () => {
    const id = await sync();
    const [run] = await handle.db.select().from(registerSyncRuns).where(eq(registerSyncRuns.id, id));
    expect(run).toMatchObject({ state: 'Done', found: 1, discrepancies: 3 });
    // Read once: the national patents are not walked on their own.
    expect(ops.requests.filter((r) => r.path.includes('/legal/'))).toHaveLength(1);

    expect(await ledgerOf()).toEqual([
      ['N-DE', 7, 'confirmed', 'register'],
      ['N-GB', 8, 'lapsed', 'register'],
    ]);
    const trail = await handle.db.select().from(patentLedgerEvents).where(sql`${patentLedgerEvents.patentKey} like ${prefix + '%'}`).orderBy(asc(patentLedgerEvents.patentKey));
    expect(trail.map((e) => [e.patentKey.slice(prefix.length), e.annuityYear, e.oldState, e.newState, e.source])).toEqual([
      ['N-DE', 7, 'paid', 'confirmed', 'register'],
      ['N-GB', 8, 'abandoned', 'lapsed', 'register'],
    ]);
    // The agents' list reads the national record's copy.
    const de = await handle.db.select({ q: patentRecords.quantieme, s: patentRecords.ledgerState }).from(patentRecords).where(eq(patentRecords.idbrevet, key('N-DE'))).orderBy(asc(patentRecords.quantieme));
    expect(de).toEqual([
      { q: 7, s: 'confirmed' },
      { q: 8, s: null },
    ]);

    // Every contradiction, with the country (the national record's office) and the event.
    expect(await discrepanciesOf()).toEqual([
      ['N-FR', 'FR', 7, 'register_paid', 'due', 'PLFP', '2005-12-16', 'open'],
      ['N-GB', 'GB', 9, 'instruction_on_lapsed', 'instructed', 'PG25', '2006-11-08', 'open'],
      ['N-GB', 'GB', 10, 'register_lapsed', 'due', 'PG25', '2006-11-08', 'open'],
    ]);
    const gb = (await handle.db.select().from(registerDiscrepancies).where(eq(registerDiscrepancies.patentKey, key('N-GB'))))[0]!;
    expect(gb.registerUrl).toMatch(/^https:\/\//);
  });

  it('the next day the same answer writes nothing twice; a discrepancy the portal resolves goes', async () => {
    await sync();
    clock += 86_400_000;
    // Staff record the FR payment: PLFP and the portal agree, the year is confirmed and the discrepancy goes.
    await handle.db.execute(sql`update patent_records set date_paiement_office = '2005-11-25' where idbrevet = ${key('N-FR')}`);
    await sync();
    expect(await ledgerOf()).toEqual([
      ['N-DE', 7, 'confirmed', 'register'],
      ['N-FR', 7, 'confirmed', 'register'],
      ['N-GB', 8, 'lapsed', 'register'],
    ]);
    expect((await discrepanciesOf()).map((d) => [d[0], d[2], d[3]])).toEqual([
      ['N-GB', 9, 'instruction_on_lapsed'],
      ['N-GB', 10, 'register_lapsed'],
    ]);
    const events = await handle.db.select().from(patentLedgerEvents).where(sql`${patentLedgerEvents.patentKey} like ${prefix + '%'}`);
    expect(events).toHaveLength(3);
  });
});
