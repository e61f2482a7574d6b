import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { threadId } from 'node:worker_threads';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');

let builtDir: string | undefined;

/**
 * The server built as `npm start` and the images build it (scripts/build-server.mjs, decision 231), once per
 * test process, in a folder of its own under dist/ (removed when the process exits).
 */
export function builtServer(): string {
  if (!builtDir) {
    removeDeadBuilds();
    const dir = path.join(REPO_ROOT, 'dist', `test-${process.pid}-${threadId}`);
    execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts/build-server.mjs'), dir], { stdio: 'pipe' });
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    builtDir = dir;
  }
  return builtDir;
}

/** The builds of test processes that are gone (a test process killed by its runner does not clean up). */
function removeDeadBuilds(): void {
  const dist = path.join(REPO_ROOT, 'dist');
  if (!existsSync(dist)) return;
  for (const name of readdirSync(dist)) {
    const pid = Number(/^test-(\d+)-\d+$/.exec(name)?.[1]);
    if (!pid || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch {
      rmSync(path.join(dist, name), { recursive: true, force: true });
    }
  }
}

/** The bundle of an entrypoint: the API and every worker run built; anything else (a script, a fixture) runs its source. */
export function builtEntry(entry: string): string | undefined {
  // TEST_RUN_SOURCES=1: every entrypoint from its source through tsx, as before decision 231 (to compare).
  if (process.env.TEST_RUN_SOURCES === '1') return undefined;
  if (entry === 'apps/api/src/main.ts') return 'api.mjs';
  const worker = /^workers\/src\/entrypoints\/([\w-]+)\.ts$/.exec(entry);
  return worker && worker[1] !== 'run-worker' ? `worker-${worker[1]}.mjs` : undefined;
}

