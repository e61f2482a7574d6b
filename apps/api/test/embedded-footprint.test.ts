import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startProcess, type RunningProcess } from './support/processes.ts';

/** Packages only the production topology uses (Redis, BullMQ, S3): the embedded portal must not load them. */
const PRODUCTION_ONLY = ['bullmq', 'ioredis', 'minio', '@socket.io/redis-adapter', '@socket.io/redis-emitter'];
/** Loaded with the first mail, not at start: an idle portal has no use for it. */
const ON_FIRST_USE = ['nodemailer'];
/**
 * Read in the jobs' worker threads only (the receipt thread's PDF.js, the spreadsheet readers), never at start on the
 * API's main thread (yauzl loads there with the first export a reader's ledger recolours, decision 234).
 */
const THREAD_ONLY = ['unpdf', 'exceljs', 'yauzl'];

describe('embedded mode footprint', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-footprint-'));
  let api: RunningProcess | undefined;
  afterAll(async () => {
    await api?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts without loading the Redis, BullMQ or S3 client libraries, nor the mailer before its first mail', async () => {
    const log = path.join(dir, 'modules.txt');
    api = startProcess('apps/api/src/main.ts', {
      DATA_DIR: path.join(dir, 'data'),
      PORT: String(await freePort()),
      SERVE_WEB: 'false',
      LOG_LEVEL: 'warn',
      RECORD_MODULES: log,
      NODE_OPTIONS: `--import ${path.join(import.meta.dirname, 'fixtures/record-modules.mjs')}`,
    });
    await api.waitFor(/Portal ready on/, 120_000);
    const modules = readFileSync(log, 'utf8').split('\n');
    // The recorder works: the libraries the embedded portal does use are there.
    expect(modules.some((url) => url.includes('/node_modules/@electric-sql/pglite/'))).toBe(true);
    expect(modules.some((url) => url.includes('/node_modules/socket.io/'))).toBe(true);
    // The built server runs without a TypeScript loader, on its main thread and in its threads (decision 231).
    expect(modules.filter((url) => url.includes('/node_modules/tsx/'))).toEqual([]);
    for (const name of [...PRODUCTION_ONLY, ...ON_FIRST_USE, ...THREAD_ONLY]) expect(modules.filter((url) => url.includes(`/node_modules/${name}/`)), name).toEqual([]);
  }, 180_000);
});
