import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseInUseError, openDatabase, roles } from '../src/index.ts';
import { LOCK_FILE, lockDataDir } from '../src/embedded-lock.ts';
import { runChild, type Child } from './support/child.ts';

const sandboxes: string[] = [];
const children: Child[] = [];
function sandbox(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portal-db-lock-'));
  sandboxes.push(dir);
  return path.join(dir, 'db');
}
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
    await child.exited;
  }
  for (const dir of sandboxes.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('embedded database: one process per data directory', () => {
  it('a second open of a data directory in use is refused (seed:demo beside a running portal lost data)', async () => {
    const dataDir = sandbox();
    const first = openDatabase({ driver: 'pglite', dataDir });
    await first.migrate();
    await first.db.insert(roles).values({ slug: 'kept' });
    expect(() => openDatabase({ driver: 'pglite', dataDir })).toThrow(DatabaseInUseError);
    expect(() => openDatabase({ driver: 'pglite', dataDir })).toThrow(`is in use by process ${process.pid}`);
    await first.close();
    expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);

    // Closed: the directory can be opened again, with its data.
    const again = openDatabase({ driver: 'pglite', dataDir });
    expect(await again.db.select({ slug: roles.slug }).from(roles)).toEqual([{ slug: 'kept' }]);
    await again.close();
  });

  it('another process gets an error naming the running one; once that one is dead its lock is taken over', async () => {
    const dataDir = sandbox();
    const holder = runChild('hold-embedded.ts', [dataDir], path.resolve(import.meta.dirname, '..'));
    children.push(holder);
    await holder.waitFor(/holding/);

    let refused: unknown;
    try {
      openDatabase({ driver: 'pglite', dataDir });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(DatabaseInUseError);
    expect((refused as Error).message).toMatch(
      new RegExp(`^The embedded database in .*db is in use by process ${holder.process.pid} \\(node .*hold-embedded\\.ts\\); stop it first or set DATABASE_URL$`),
    );

    // SIGKILL leaves the lock file behind; its pid is gone, so the next open takes it over.
    holder.process.kill('SIGKILL');
    await holder.exited;
    expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(true);
    const next = openDatabase({ driver: 'pglite', dataDir });
    expect(await next.db.select({ slug: roles.slug }).from(roles)).toEqual([{ slug: 'written-by-holder' }]);
    await next.close();
  });

  it('a lock file that never got its owner written (creator died at once) is taken over', () => {
    const dataDir = sandbox();
    mkdirSync(dataDir, { recursive: true });
    const lock = path.join(dataDir, LOCK_FILE);
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    const release = lockDataDir(dataDir);
    expect(readFileSync(lock, 'utf8')).toContain(`"pid":${process.pid}`);
    release();
    expect(existsSync(lock)).toBe(false);
  });
});
