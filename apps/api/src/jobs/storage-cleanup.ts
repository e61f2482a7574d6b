import { referencedStorageKeys, type Executor } from '@portal/db';
import type { Storage } from '@portal/storage';
import type { Clock } from '../clock.ts';
import type { AppContext } from '../context.ts';

/**
 * An object younger than this may belong to a request or job still on its way to committing the
 * row that points to it; older and unreferenced, its writer failed (crash between store and commit).
 */
export const STORAGE_GRACE_MS = 24 * 60 * 60_000;
export const STORAGE_CLEANUP_INTERVAL_MS = 60 * 60_000;
/** Keys looked at per pass, so a pass stays short on a large bucket; the next pass resumes after. */
export const STORAGE_CLEANUP_MAX_SCANNED = 5_000;
/** Keys checked against the database per query. */
const BATCH = 500;

export interface StorageCleanupDeps {
  db: Executor;
  storage: Storage;
  clock: Clock;
}

export interface StorageCleanupPass {
  scanned: number;
  deleted: number;
  /** Where the next pass resumes; undefined once the listing reached its end (the next starts over). */
  resumeAfter: string | undefined;
}

/**
 * One pass of the clean-up: deletes the objects older than the grace period that no row points to
 * (the reference columns are declared in `@portal/db` STORAGE_KEY_COLUMNS), looking at no more
 * than `maxScanned` keys after `startAfter`.
 */
export async function cleanUpStorage(
  deps: StorageCleanupDeps,
  options: { startAfter?: string; maxScanned?: number } = {},
): Promise<StorageCleanupPass> {
  const maxScanned = options.maxScanned ?? STORAGE_CLEANUP_MAX_SCANNED;
  const cutoff = deps.clock.now().getTime() - STORAGE_GRACE_MS;
  let scanned = 0;
  let deleted = 0;
  let candidates: string[] = [];
  const deleteUnreferenced = async () => {
    const referenced = await referencedStorageKeys(deps.db, candidates);
    for (const key of candidates) {
      if (referenced.has(key)) continue;
      await deps.storage.delete(key);
      deleted++;
    }
    candidates = [];
  };

  for await (const object of deps.storage.list({ startAfter: options.startAfter })) {
    scanned++;
    if (object.lastModified.getTime() < cutoff) candidates.push(object.key);
    if (candidates.length >= BATCH) await deleteUnreferenced();
    if (scanned >= maxScanned) {
      await deleteUnreferenced();
      return { scanned, deleted, resumeAfter: object.key };
    }
  }
  await deleteUnreferenced();
  return { scanned, deleted, resumeAfter: undefined };
}

/**
 * Runs the clean-up every hour (and once at start in the embedded mode, whose process is often
 * short-lived); passes never overlap. Logs counts only: keys carry client file names. Returns the
 * stop function, which waits for a pass under way.
 */
export function scheduleStorageCleanup(ctx: AppContext): () => Promise<void> {
  let resumeAfter: string | undefined;
  let running: Promise<void> | undefined;
  const pass = async () => {
    try {
      const result = await cleanUpStorage(ctx, { startAfter: resumeAfter });
      resumeAfter = result.resumeAfter;
      ctx.logger[result.deleted > 0 ? 'info' : 'debug']({ scanned: result.scanned, deleted: result.deleted }, 'storage clean-up');
    } catch (error) {
      ctx.logger.warn({ err: error }, 'storage clean-up failed');
    }
  };
  // Starts a pass unless one is under way; pass() catches its own errors, so `running` never rejects.
  const run = (): void => {
    running ??= pass().finally(() => (running = undefined));
  };
  if (ctx.database.driver === 'pglite') run();
  const timer = setInterval(run, STORAGE_CLEANUP_INTERVAL_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
