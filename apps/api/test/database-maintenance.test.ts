import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REALTIME_PATH } from '@portal/contracts';
import { afterBulkWrite, createMaintenance, openDatabase, readTableCounters, type DatabaseHandle, type StepResult } from '@portal/db';
import { createScratchDatabase, explainPlan, planNodes, testDatabaseBaseUrl, testDatabaseKinds, testPgliteConfig } from '@portal/db/testing';
import { createLogger } from '@portal/logger';
import { createMetrics } from '@portal/ops';
import { RequestGate, scheduleDatabaseMaintenance } from '../src/jobs/database-maintenance.ts';

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('embedded database maintenance (PGlite, real HTTP)', () => {
  let database: DatabaseHandle;
  beforeEach(async () => {
    database = openDatabase(testPgliteConfig());
    await database.migrate();
    await database.db.execute(sql`create table maint_probe (id integer primary key, v text not null)`);
    await database.db.execute(sql`insert into maint_probe select g, repeat('x', 40) from generate_series(1, 5000) g`);
  });
  afterEach(() => database?.close());

  it('starts no statement while a request is in flight (socket.io polling aside), and goes on once it is answered', async () => {
    const held: http.ServerResponse[] = [];
    const server = http.createServer((_req, res) => void held.push(res));
    const gate = new RequestGate();
    gate.attach(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      // A socket.io long-polling request is held open by design: it does not count.
      const polling = fetch(`${base}${REALTIME_PATH}/?EIO=4&transport=polling`).catch(() => undefined);
      await expect.poll(() => held.length).toBe(1);
      expect(gate.requestsInFlight).toBe(0);
      const request = fetch(`${base}/api/auth/verify_token_`).then((r) => r.text());
      await expect.poll(() => gate.requestsInFlight).toBe(1);

      const events: string[] = [];
      let atGate = 0;
      const maintenance = createMaintenance({
        db: database.db,
        idle: () => {
          atGate++;
          return gate.idle();
        },
        onStep: (s) => events.push(`${s.table}:${s.action}`),
      });
      const pass = maintenance.pass({ tables: ['maint_probe'] });
      await expect.poll(() => atGate).toBe(1);
      await turns(20);
      expect(events).toEqual([]);

      events.push('answered');
      held[1]!.end('ok');
      expect(await request).toBe('ok');
      await pass;
      expect(events).toEqual(['answered', 'maint_probe:vacuum', 'maint_probe:analyze']);
      held[0]!.end();
      await polling;
    } finally {
      for (const res of held) if (!res.writableEnded) res.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('the scheduled maintenance logs each statement (table, action, ms) and times it in portal_db_maintenance_seconds; bulk writers reach it', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger({ level: 'info', name: 'maintenance-test' }, new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        done();
      },
    }));
    const metrics = createMetrics({ service: 'api' });
    const scheduled = scheduleDatabaseMaintenance({ database, db: database.db, logger, metrics }, new RequestGate());
    try {
      // The pass at start, then the one a bulk writer's end point asks for.
      await scheduled.maintenance!.pass();
      const first = lines.filter((l) => l.event === 'db_maintenance' && l.table === 'maint_probe').map((l) => l.action);
      expect(first).toEqual(['vacuum', 'analyze']);
      await database.db.execute(sql`insert into maint_probe select g, 'y' from generate_series(5001, 12000) g`);
      const steps: StepResult[] = [];
      await afterBulkWrite(database.db, { maint_probe: 7000 });
      expect(scheduled.maintenance!.running).toBe(true);
      steps.push(...(await scheduled.maintenance!.pass({ tables: ['maint_probe'] })));
      expect(lines.filter((l) => l.event === 'db_maintenance' && l.table === 'maint_probe').map((l) => l.action)).toEqual(['vacuum', 'analyze', 'vacuum', 'analyze']);
      expect(steps).toEqual([]);
      const line = lines.find((l) => l.event === 'db_maintenance')!;
      expect(Object.keys(line).filter((k) => !['level', 'time', 'pid', 'hostname', 'name', 'service', 'msg'].includes(k)).sort()).toEqual(['action', 'event', 'ms', 'table']);
      expect(await metrics.render()).toMatch(/portal_db_maintenance_seconds_count\{service="api",table="maint_probe",action="analyze"\} 2/);
    } finally {
      await scheduled.stop();
    }
  });
});

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe.each(testDatabaseKinds())('npm run seed:demo ends with the database vacuumed and analysed (%s)', (kind) => {
  it('the default tab is counted from its index alone (no heap fetch), with fresh statistics', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-seed-maintenance-'));
    const scratch = kind === 'postgres' ? await createScratchDatabase(testDatabaseBaseUrl()!) : undefined;
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...(scratch ? { DATABASE_URL: scratch.url } : {}) };
    let database: DatabaseHandle | undefined;
    try {
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'apps/api/src/scripts/seed-demo.ts', '--patents', '3000', '--cabinets', '4'], { cwd: REPO_ROOT, env });
      expect(stdout).toMatch(/Database vacuumed and analysed: \d+ tables/);
      database = openDatabase(scratch ? { driver: 'postgres', url: scratch.url } : { driver: 'pglite', dataDir: path.join(dataDir, 'db') });
      // PGlite does not keep its counters across a restart: the catalog tells what the seed's last pass did.
      const [patents] = await readTableCounters(database.db, ['patent_records']);
      expect(patents).toMatchObject({ reltuples: 3000, relallvisible: patents!.pages });
      if (kind === 'postgres') {
        expect(patents).toMatchObject({ modifiedSinceAnalyze: 0, insertedSinceVacuum: 0 });
        expect(patents!.lastAnalyze).not.toBeNull();
        expect(patents!.lastVacuum).not.toBeNull();
      }
      const counted = sql`select count(*) from patent_records where has_instruction = false`;
      expect(planNodes(await explainPlan(database.db, counted)).map((n) => n['Node Type'])).toContain('Index Only Scan');
      const explained: unknown = await database.db.execute(sql`explain (analyze, format json) ${counted}`);
      const [row] = (explained as { rows: Array<Record<string, unknown>> }).rows;
      const cell = Object.values(row!)[0];
      const plan = ((typeof cell === 'string' ? JSON.parse(cell) : cell) as Array<{ Plan: Parameters<typeof planNodes>[0] }>)[0]!.Plan;
      expect(planNodes(plan).find((n) => n['Node Type'] === 'Index Only Scan')?.['Heap Fetches']).toBe(0);
    } finally {
      await database?.close();
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});

describe.each(testDatabaseKinds())('a patent import of 600 rows through the portal is followed by the policy (%s)', (kind) => {
  it('patent_records gets statistics (and, embedded, its visibility map) once the import is Done', async () => {
    const { startTestPortal } = await import('./support/portal.ts');
    const t = await startTestPortal(kind);
    try {
      const admin = await t.loginAs('admin');
      const header = 'idagenda;code_client;cabinet;ReferenceClient;Pays;DateEcheance;Quantieme;cost;currency';
      const rows = Array.from({ length: 600 }, (_v, i) => `P-${i};C1;Cabinet Un;REF-${i};FR;2027-06-30;3;50;EUR`);
      const res = await admin.client.upload('/api/patent_imports', [{ filename: 'portfolio.csv', content: [header, ...rows].join('\r\n') + '\r\n' }]);
      expect(res.status).toBe(200);
      await t.drainQueue();
      const done = await admin.client.get(`/api/patent_imports/${res.body.patent_import._id}`);
      expect(done.body.patent_import).toMatchObject({ state: 'Done', inserted: 600 });
      // PostgreSQL: analysed at once by the import's end point; embedded: by the pass it asked for, between requests.
      await expect
        .poll(async () => (await readTableCounters(t.portal.ctx.db, ['patent_records']))[0]!.reltuples, { timeout: 30_000, interval: 200 })
        .toBe(600);
      if (kind === 'pglite') {
        await expect.poll(async () => {
          const [c] = await readTableCounters(t.portal.ctx.db, ['patent_records']);
          return c!.relallvisible === c!.pages && c!.pages > 0;
        }, { timeout: 30_000, interval: 200 }).toBe(true);
      }
    } finally {
      await t.close();
    }
  }, 180_000);
});
