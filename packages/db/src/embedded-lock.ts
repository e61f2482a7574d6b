import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

/** Lives inside the PGlite data directory, which PGlite leaves alone (it keeps no lock of its own). */
export const LOCK_FILE = 'portal.lock';

interface LockOwner {
  pid: number;
  command: string;
  /** Makes each lock's content unique, so a release or a takeover removes exactly the file it read. */
  token: string;
}

/** Another live process has the embedded database open: PGlite allows one process, a second would lose writes. */
export class DatabaseInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: Pick<LockOwner, 'pid' | 'command'>,
  ) {
    super(`The embedded database in ${displayPath(dataDir)} is in use by process ${owner.pid} (${owner.command}); stop it first or set DATABASE_URL`);
    this.name = 'DatabaseInUseError';
  }
}

/**
 * Lock files held by this process: a lock bearing our own pid that is not in here was left by an
 * earlier process that had the same pid (pid 1 in a container), so it is stale.
 */
const held = new Set<string>();

/**
 * Takes the exclusive lock of an embedded data directory, or throws DatabaseInUseError naming the
 * live process that holds it. The lock file is created with O_EXCL (`wx`), so of two processes
 * starting together exactly one wins; a lock whose process is gone is taken over. Returns the
 * release function; the lock is also released when the process exits without closing.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = path.resolve(dataDir, LOCK_FILE);
  const me: LockOwner = { pid: process.pid, command: describeCommand(), token: randomUUID() };
  const content = JSON.stringify(me);
  // A few rounds: each lost round means another process removed a stale lock or took it meanwhile.
  for (let round = 0; round < 5; round++) {
    if (tryCreate(file, content)) {
      held.add(file);
      const release = () => {
        process.removeListener('exit', release);
        held.delete(file);
        removeIfContent(file, content);
      };
      process.once('exit', release);
      return release;
    }
    const existing = readLock(file);
    if (existing === 'missing') continue;
    if (existing.owner && isAlive(existing.owner.pid, file)) throw new DatabaseInUseError(dataDir, existing.owner);
    // Stale: its process is gone, or it died between creating the file and writing it.
    removeIfContent(file, existing.raw);
  }
  throw new Error(`Could not take the lock ${file}: other processes keep taking it`);
}

function tryCreate(file: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return true;
}

const WRITE_GRACE_MS = 2_000;

/**
 * The lock's content and owner; owner null when the content is not a lock record even after its
 * creator had time to write it (it created the file and died before writing).
 */
function readLock(file: string): { owner: LockOwner | null; raw: string } | 'missing' {
  for (;;) {
    let raw: string;
    let age: number;
    try {
      raw = readFileSync(file, 'utf8');
      age = Date.now() - statSync(file).mtimeMs;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
      throw error;
    }
    const owner = parseOwner(raw);
    if (owner) return { owner, raw };
    // Created a moment ago by a process that has not written its record yet: wait for it.
    if (age > WRITE_GRACE_MS) return { owner: null, raw };
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  }
}

function parseOwner(raw: string): LockOwner | null {
  try {
    const value = JSON.parse(raw) as Partial<LockOwner>;
    return Number.isInteger(value.pid) && typeof value.command === 'string' && typeof value.token === 'string' ? (value as LockOwner) : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number, file: string): boolean {
  // Our own pid on a lock we do not hold: left by an earlier process with the same pid.
  if (pid === process.pid) return held.has(file);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, owned by another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the lock only while it still holds `content`, so a lock another process just took stays. */
function removeIfContent(file: string, content: string): void {
  try {
    if (readFileSync(file, 'utf8') === content) unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** What a person would recognise in `ps`: the npm script when started through npm, else the script file. */
function describeCommand(): string {
  // npm sets this for `npm start` / `npm run <script>`; it is npm's, not a configuration variable.
  const npmScript = process.env.npm_lifecycle_event;
  if (npmScript) return npmScript === 'start' ? 'npm start' : `npm run ${npmScript}`;
  const script = process.argv[1];
  return script ? `node ${displayPath(script)}` : process.title;
}

function displayPath(target: string): string {
  const relative = path.relative(process.cwd(), target);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? `./${relative}` : target;
}
