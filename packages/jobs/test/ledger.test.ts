import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cabinets, patentLedger, patentLedgerEvents, patentRecords, receiptUploads, receipts, users, type DatabaseHandle } from '@portal/db';
import { openTestDatabase, testDatabaseKinds } from '@portal/db/testing';
import { writeLedger, type LedgerChange } from '../src/ledger/write.ts';
import { rowsOf } from '../src/patents/rows.ts';

/* Decision 191: the ledger's writer on both databases, and an instruction and a receipt on one year at the same moment. */

describe.each(testDatabaseKinds())('payment ledger (%s)', (kind) => {
  let handle: DatabaseHandle;
  let cabinetId: string;
  let userId: string;
  let uploadId: string;
  let n = 0;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    const [cabinet] = await handle.db.insert(cabinets).values({ name: `Ledger ${kind}` }).returning();
    cabinetId = cabinet!.id;
    const [user] = await handle.db.insert(users).values({ companyAgent: 'Agent', email: `ledger-${kind}@portal.test` }).returning();
    userId = user!.id;
    const [upload] = await handle.db.insert(receiptUploads).values({ ownerId: userId, originalName: 'r.pdf', storageKey: `u/${crypto.randomUUID()}`, size: 1, sha256: 'x' }).returning();
    uploadId = upload!.id;
  });
  afterAll(async () => {
    await handle?.close();
  });

  async function record(values: Partial<typeof patentRecords.$inferInsert> = {}) {
    n++;
    const [row] = await handle.db
      .insert(patentRecords)
      .values({ idagenda: `L-${n}`, idbrevet: `B-${n}`, cabinetId, clientCode: 'C1', pays: 'FR', quantieme: 6, dateEcheance: '2027-03-31', ...values })
      .returning();
    return row!;
  }
  async function receipt() {
    n++;
    const [row] = await handle.db.insert(receipts).values({ uploadId, entryIndex: n, fileName: `r-${n}.pdf`, storageKey: `r/${crypto.randomUUID()}`, size: 1, source: 'pdf_text' }).returning();
    return row!;
  }
  let tick = 0;
  /** Each write one second after the one before: the trail reads in order. */
  const write = (changes: LedgerChange[], afterLock?: () => Promise<void>) =>
    handle.db.transaction((tx) => writeLedger(tx, changes, { at: new Date(Date.parse('2026-03-12T10:00:00Z') + ++tick * 1000), afterLock }));
  const yearOf = async (key: string, year: number) => (await handle.db.select().from(patentLedger).where(sql`${patentLedger.patentKey} = ${key} and ${patentLedger.annuityYear} = ${year}`))[0];
  const trailOf = async (key: string) =>
    (await handle.db.select().from(patentLedgerEvents).where(eq(patentLedgerEvents.patentKey, key)).orderBy(asc(patentLedgerEvents.createdAt), asc(patentLedgerEvents.id))).map((e) => [
      e.oldState,
      e.newState,
      e.source,
    ]);
  const stateOfRecord = async (id: string) => (await handle.db.select({ s: patentRecords.ledgerState }).from(patentRecords).where(eq(patentRecords.id, id)))[0]!.s;

  it('an instruction, its validation and a receipt: state, source, payment, trail and the record’s copy', async () => {
    const p = await record();
    await write([{ recordId: p.id, event: { kind: 'instruction', source: 'screen', instructionId: 1 }, userId }]);
    expect(await yearOf('B-' + p.idagenda.slice(2), 6)).toMatchObject({ state: 'instructed', source: 'screen', recordId: p.id });
    expect(await stateOfRecord(p.id)).toBe('instructed');
    await write([{ recordId: p.id, event: { kind: 'validation' }, userId }]);
    const r = await receipt();
    const [outcome] = await write([{ recordId: p.id, event: { kind: 'receipt', source: 'receipt', receiptId: r.id, paidOn: '2026-03-10', amount: '120.50', currency: 'EUR' } }]);
    expect(outcome!.transition).toEqual({ ok: true, state: 'paid', changed: true });
    expect(await yearOf(p.idbrevet!, 6)).toMatchObject({ state: 'paid', source: 'receipt', paidOn: '2026-03-10', amount: '120.50', currency: 'EUR', receiptId: r.id });
    expect(await stateOfRecord(p.id)).toBe('paid');
    expect(await trailOf(p.idbrevet!)).toEqual([
      ['due', 'instructed', 'screen'],
      ['instructed', 'ordered', 'validation'],
      ['ordered', 'paid', 'receipt'],
    ]);
    // After the payment an agent's "do not pay" is refused and changes nothing.
    const [refused] = await write([{ recordId: p.id, event: { kind: 'instruction', source: 'screen', instructionId: 2 }, userId }]);
    expect(refused!.transition).toEqual({ ok: false, reason: 'after_payment' });
    expect((await trailOf(p.idbrevet!)).length).toBe(3);
  });

  it('one row per patent and year: two records of a patent share it, a record without idbrevet is its own patent, no year no row', async () => {
    const a = await record({ idbrevet: 'SHARED', quantieme: 7 });
    const b = await record({ idbrevet: 'SHARED', quantieme: 7 });
    const c = await record({ idbrevet: null, quantieme: 3 });
    const d = await record({ quantieme: null });
    const outcomes = await write([
      { recordId: a.id, event: { kind: 'instruction', source: 'bulk', instructionId: 2 }, userId },
      { recordId: c.id, event: { kind: 'instruction', source: 'bulk', instructionId: 1 }, userId },
      { recordId: d.id, event: { kind: 'instruction', source: 'bulk', instructionId: 1 }, userId },
    ]);
    expect(outcomes.map((o) => o.transition?.ok ?? null)).toEqual([true, true, null]);
    expect((await yearOf('SHARED', 7))!.state).toBe('abandoned');
    expect(await stateOfRecord(b.id)).toBe('abandoned');
    expect((await yearOf(`record:${c.id}`, 3))!.state).toBe('instructed');
    expect(await stateOfRecord(d.id)).toBeNull();
  });

  it('a record from before the ledger starts from what it says (validated: ordered)', async () => {
    const p = await record({ instructionId: 1, instructionStatus: 'validated' });
    const r = await receipt();
    await write([{ recordId: p.id, event: { kind: 'receipt', source: 'staff', receiptId: r.id, paidOn: null, amount: null, currency: null }, userId }]);
    expect(await trailOf(p.idbrevet!)).toEqual([['ordered', 'paid', 'staff']]);
  });

  it('an instruction and a receipt on the same year at the same moment: the year ends paid and the trail chains', async () => {
    const p = await record();
    // The year exists (committed) before both start, as it does for any patent the ledger knows.
    await write([{ recordId: p.id, event: { kind: 'validation' } }]);
    expect((await yearOf(p.idbrevet!, 6))!.state).toBe('due');
    const r = await receipt();
    const receiptWrite = () => write([{ recordId: p.id, event: { kind: 'receipt', source: 'receipt', receiptId: r.id, paidOn: '2026-03-11', amount: '90.00', currency: 'EUR' } }]);
    let second: Promise<unknown> | undefined;
    let settled = false;
    const instruction = write([{ recordId: p.id, event: { kind: 'instruction', source: 'screen', instructionId: 1 }, userId }], async () => {
      if (kind === 'pglite') return; // one connection: the receipt's transaction runs after this one
      // The receipt starts while the instruction holds the year, and the instruction goes on once the receipt waits for
      // a lock or (without the row lock) has finished.
      second = receiptWrite().finally(() => (settled = true));
      for (let i = 0; i < 500 && !settled; i++) {
        const waiting = rowsOf<{ n: number }>(
          await handle.db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`),
        )[0]!.n;
        if (waiting > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    });
    if (kind === 'pglite') second = receiptWrite();
    await instruction;
    await second;
    expect(await yearOf(p.idbrevet!, 6)).toMatchObject({ state: 'paid', receiptId: r.id, paidOn: '2026-03-11' });
    expect(await stateOfRecord(p.id)).toBe('paid');
    const trail = await trailOf(p.idbrevet!);
    expect(trail.at(-1)![1]).toBe('paid');
    // Every change starts from the state the one before it left.
    for (let i = 1; i < trail.length; i++) expect(trail[i]![0]).toBe(trail[i - 1]![1]);
    expect(trail[0]![0]).toBe('due');
  });

  it('a receipt holding the year while the screen holds the record (it locks it first): they wait, no deadlock', async () => {
    if (kind === 'pglite') return; // one connection: transactions run one after the other
    const p = await record();
    await write([{ recordId: p.id, event: { kind: 'validation' } }]);
    const r = await receipt();
    let screen: Promise<unknown> | undefined;
    let settled = false;
    await write([{ recordId: p.id, event: { kind: 'receipt', source: 'receipt', receiptId: r.id, paidOn: '2026-03-11', amount: null, currency: null } }], async () => {
      // What updateInstruction does: its record FOR UPDATE (loadPatent), then the ledger.
      screen = handle.db
        .transaction(async (tx) => {
          await tx.execute(sql`select id from patent_records where id = ${p.id} for update`);
          await writeLedger(tx, [{ recordId: p.id, event: { kind: 'instruction', source: 'screen', instructionId: 1 }, userId }], { at: new Date(Date.parse('2026-03-12T10:00:00Z') + ++tick * 1000) });
        })
        .finally(() => (settled = true));
      for (let i = 0; i < 500 && !settled; i++) {
        const waiting = rowsOf<{ n: number }>(await handle.db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`))[0]!.n;
        if (waiting > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    });
    await screen;
    expect(await yearOf(p.idbrevet!, 6)).toMatchObject({ state: 'paid', receiptId: r.id });
    expect(await trailOf(p.idbrevet!)).toEqual([['due', 'paid', 'receipt']]);
    expect(await stateOfRecord(p.id)).toBe('paid');
  });
});
