import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledesRuns, users, type Database, type DatabaseHandle } from '@portal/db';
import { openTestDatabase, testDatabaseKinds } from '@portal/db/testing';
import { checkLedes, defaultProfile } from '@portal/ledes';
import { manyInvoices } from '../../ledes/test/generate.ts';
import { acceptedInvoiceLookup, DuplicateInvoiceRaceError, storeAcceptedInvoices } from '../src/ledes/invoices.ts';

const kinds = testDatabaseKinds();

/** The same database, counting the queries started through it (select and execute). */
function counting(db: Database) {
  const counter = { queries: 0 };
  const proxy = new Proxy(db, {
    get(target, key, receiver) {
      if (key === 'select' || key === 'execute') counter.queries++;
      return Reflect.get(target, key, receiver);
    },
  });
  return { db: proxy, counter };
}

describe.each(kinds)('accepted invoices and CON-007 (%s)', (kind) => {
  let handle: DatabaseHandle;
  let ownerId: string;
  const runFor = async (idClient: string | null) => {
    const [run] = await handle.db
      .insert(ledesRuns)
      .values({ ownerId, name: 'n', originalName: 'n.txt', originalKey: `k/${crypto.randomUUID()}`, size: 1, sha256: 'x', office: 'PAR', type: 'patent', idClient })
      .returning();
    return run!;
  };
  const duplicates = async (db: Database, run: Awaited<ReturnType<typeof runFor>>, text: string) => {
    const { summary, result } = await checkLedes(Readable.from([Buffer.from(text)]), {
      filename: 'f.txt',
      profile: defaultProfile('PAR', 'patent')!,
      clock: () => new Date('2025-06-01T08:00:00Z'),
      acceptedInvoices: acceptedInvoiceLookup(db, run),
    });
    return { summary, con007: result.errors.flatMap((l) => l.items).filter((i) => i.code_ledes === 'CON-007').length };
  };

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    const [owner] = await handle.db.insert(users).values({ companyAgent: 'Firm', email: `owner-${kind}@portal.test` }).returning();
    ownerId = owner!.id;
  });
  afterAll(async () => {
    await handle.close();
  });

  it('#8 stores 20,000 accepted invoice numbers in bounded statements', async () => {
    const run = await runFor('CLIENT-A');
    const { summary } = await duplicates(handle.db, run, manyInvoices(20_000, 'a-'));
    expect(summary.accepted).toBe(true);
    await handle.db.transaction((tx) => storeAcceptedInvoices(tx, run, summary.invoices));
    const next = await runFor('CLIENT-A');
    expect((await duplicates(handle.db, next, manyInvoices(20_000, 'a-'))).con007).toBe(20_000);
  });

  it('#8 CON-007 asks one query per 1,000 invoices and matches only the same client', async () => {
    const accepted = await runFor('CLIENT-B');
    const { summary } = await duplicates(handle.db, accepted, manyInvoices(2000, 'b-'));
    await handle.db.transaction((tx) => storeAcceptedInvoices(tx, accepted, summary.invoices));

    const same = counting(handle.db);
    expect((await duplicates(same.db, await runFor('CLIENT-B'), manyInvoices(2000, 'b-'))).con007).toBe(2000);
    expect(same.counter.queries).toBe(2);

    const other = counting(handle.db);
    expect((await duplicates(other.db, await runFor('CLIENT-C'), manyInvoices(2000, 'b-'))).con007).toBe(0);
    expect(other.counter.queries).toBe(2);
  });

  it('#8 two runs of one client cannot both store an invoice number: the later commit fails and is retried', async () => {
    const first = await runFor('CLIENT-D');
    const second = await runFor('CLIENT-D');
    const { summary } = await duplicates(handle.db, first, manyInvoices(3, 'd-'));
    // Both passed the duplicate check before either committed, as two concurrent uploads would.
    await handle.db.transaction((tx) => storeAcceptedInvoices(tx, first, summary.invoices));
    await expect(handle.db.transaction((tx) => storeAcceptedInvoices(tx, second, summary.invoices))).rejects.toBeInstanceOf(DuplicateInvoiceRaceError);
    // Another client may accept the same numbers.
    await handle.db.transaction((tx) => storeAcceptedInvoices(tx, { ...second, idClient: 'CLIENT-E' }, summary.invoices));
  });
});
