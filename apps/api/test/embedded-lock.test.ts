import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startProcess, type RunningProcess } from './support/processes.ts';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

/** Runs a one-shot entrypoint to its end and returns its exit code and output. */
async function runToEnd(entry: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const run = startProcess(entry, env);
  await new Promise<void>((resolve) => (run.child.exitCode !== null ? resolve() : run.child.once('exit', () => resolve())));
  return { code: run.child.exitCode, output: run.output() };
}

describe('embedded mode: seed:demo beside a running portal', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-embedded-lock-'));
  let api: RunningProcess | undefined;
  afterAll(async () => {
    await api?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is refused with a message naming the running portal instead of silently losing data, and works once the portal stopped', async () => {
    const env = { DATA_DIR: dataDir, PORT: String(await freePort()), SERVE_WEB: 'false', LOG_LEVEL: 'warn' };
    api = startProcess('apps/api/src/main.ts', env);
    await api.waitFor(/Portal ready on/, 120_000);

    const refused = await runToEnd('apps/api/src/scripts/seed-demo.ts', env);
    expect(refused.code, refused.output).toBe(1);
    expect(refused.output).toContain(
      `The embedded database in ${path.join(dataDir, 'db')} is in use by process ${api.child.pid} (node ./${path.relative(REPO_ROOT, api.child.spawnargs.at(-1)!)}); stop it first or set DATABASE_URL`,
    );

    // A stopped portal releases its lock.
    await api.stop();
    const seeded = await runToEnd('apps/api/src/scripts/seed-demo.ts', env);
    expect(seeded.code, seeded.output).toBe(0);
    expect(seeded.output).toContain('Demo password for every demo user');
  }, 240_000);
});
