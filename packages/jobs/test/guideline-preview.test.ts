import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledesRuns } from '@portal/db';
import { previewGuidelines, runEngineInThread, type LedesEngine } from '../src/index.ts';
import { createWorld, type World } from './world.ts';

/**
 * Issue 31 §1, the preview bounded (follow-up): the client's last files are checked within a time budget; past it
 * the file being read is stopped and it and the older ones are counted as unchecked, so a request never holds the
 * engine thread for long, whatever the files.
 */
describe('guideline preview within its time budget', () => {
  let world: World;
  const idClient = 'PREVIEW-CLIENT';
  beforeAll(async () => {
    world = await createWorld();
    // Three checked files of the client, the newest last.
    for (let i = 0; i < 3; i++) {
      const runId = await world.createRun();
      await world.database.db.update(ledesRuns).set({ state: 'Done', accepted: true, idClient, originalName: `f${i}.txt`, createdAt: new Date(Date.UTC(2026, 0, 1 + i)) }).where(eq(ledesRuns.id, runId));
    }
  });
  afterAll(async () => world?.close());

  const rules = [{ kind: 'max_rate' as const, ref: '§1', severity: 'error' as const, classification: 'PARTNR', max: '1' }];

  it('within the budget every file is checked, newest first', async () => {
    const preview = await previewGuidelines({ db: world.database.db, storage: world.storage }, idClient, rules, 10, 20, 60_000);
    expect(preview.unchecked).toBe(0);
    expect(preview.runs.map((r) => r.filename)).toEqual(['f2.txt', 'f1.txt', 'f0.txt']);
  });

  it('the budget spent after two files: the oldest is left unchecked and counted', async () => {
    let clock = 0;
    // Each file takes 6 s of the 10 s budget.
    const engine: LedesEngine = async (source, options) => {
      const result = await runEngineInThread(source, options);
      clock += 6_000;
      return result;
    };
    const preview = await previewGuidelines({ db: world.database.db, storage: world.storage, engine, now: () => clock }, idClient, rules, 10, 20, 10_000);
    expect(preview.runs.map((r) => r.filename)).toEqual(['f2.txt', 'f1.txt']);
    expect(preview.unchecked).toBe(1);
  });

  it('the budget spent while a file is read: that file is stopped and left out with the older ones', async () => {
    let clock = 0;
    let calls = 0;
    const engine: LedesEngine = (source, options) => {
      // The second file: the budget runs out before its first chunk is read.
      if (++calls === 2) clock = 20_000;
      return runEngineInThread(source, options);
    };
    const preview = await previewGuidelines({ db: world.database.db, storage: world.storage, engine, now: () => clock }, idClient, rules, 10, 20, 10_000);
    expect(calls).toBe(2);
    expect(preview.runs.map((r) => r.filename)).toEqual(['f2.txt']);
    expect(preview.unchecked).toBe(2);
  });
});
