import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnnuityFileDto } from '@portal/contracts';
import { annuityFiles, users, type Database } from '@portal/db';
import { BUS_EVENT, type BusMessage } from '@portal/realtime';
import { annuitiesJob, ANNUITY_PROGRESS_MS, type AnnuityEngine, type CheckAnnuitiesDeps } from '../src/index.ts';
import { createWorld, type World } from './world.ts';

let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(() => world.close());

/** The database, counting the statements that read `users` (the owner's language, formerly read per event). */
function countingUserReads(db: Database): { db: Database; reads: () => number } {
  let reads = 0;
  const bind = (target: object, prop: string | symbol) => {
    const value = Reflect.get(target, prop) as unknown;
    return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
  };
  const proxied = new Proxy(db, {
    get(target, prop) {
      if (prop !== 'select') return bind(target, prop);
      return (...args: unknown[]) => {
        const builder = (target.select as (...a: unknown[]) => object)(...args);
        return new Proxy(builder, {
          get(b, p) {
            if (p !== 'from') return bind(b, p);
            return (table: unknown, ...rest: unknown[]) => {
              if (table === users) reads++;
              return (b as { from(...a: unknown[]): unknown }).from(table, ...rest);
            };
          },
        });
      };
    },
  });
  return { db: proxied, reads: () => reads };
}

describe('annuity events', () => {
  it('carry codes and numbers: a check publishes its progress every ANNUITY_PROGRESS_MS without reading the database per event', async () => {
    const key = `annuities/import/${randomUUID()}.xlsx`;
    await world.storage.put(key, Buffer.from('not read by the fake engine'));
    const [file] = await world.database.db.insert(annuityFiles).values({ ownerId: world.ownerId, importName: 'a.xlsx', exportName: 'a_export.xlsx', importKey: key, size: 27, sha256: 'x' }).returning();
    // An engine that takes a few progress periods before answering, with no rows.
    const engine: AnnuityEngine = async (_bytes, options) => {
      options.onExpected?.(0);
      await new Promise((resolve) => setTimeout(resolve, ANNUITY_PROGRESS_MS * 4));
      options.out.end();
      return { ok: true, counts: { rows: 0, colours: { ok: 0, nok: 0, orange: 0, no_date: 0 } } } as never;
    };
    const counting = countingUserReads(world.database.db);
    const events: AnnuityFileDto[] = [];
    world.realtime.bus.on(BUS_EVENT, (message: BusMessage) => {
      if (message.event === 'annuities:file:updated' && message.room.startsWith('user:')) events.push(message.args[0] as AnnuityFileDto);
    });
    const deps = { db: counting.db, storage: world.storage, realtime: world.realtime, logger: world.logger, annuityEngine: engine } as CheckAnnuitiesDeps;
    await annuitiesJob.processor(deps)({ fileId: file!.id }, { jobId: 'annuities-1', attempt: 1, signal: new AbortController().signal, updateProgress: async () => {}, log: () => {} });
    const progress = events.filter((e) => e._id === file!.id && e.is_done === 'in_progress');
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(events.filter((e) => e._id === file!.id).at(-1)).toMatchObject({ is_done: 'Done', error_message: null });
    expect(counting.reads()).toBe(0);
  });
});
