import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REALTIME_PATH } from '@portal/contracts';
import { afterBulkWrite, createMaintenance, openDatabase, type DatabaseHandle, type StepResult } from '@portal/db';
import { testPgliteConfig } from '@portal/db/testing';
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
