import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JOB_PAYLOADS, QUEUE_NAMES } from '@portal/contracts';
import { JOB_REGISTRY, REGISTERED_QUEUES, consumedQueues, type JobPorts } from '@portal/jobs';
import { bindJob } from '@portal/queue';
import { HAND_BACK_AFTER_MS, SHUTDOWN_GRACE_MS } from '../src/entrypoints/run-worker.ts';

const root = new URL('../../', import.meta.url);
const compose = readFileSync(new URL('docker-compose.yml', root), 'utf8');
const scripts = (JSON.parse(readFileSync(new URL('workers/package.json', root), 'utf8')) as { scripts: Record<string, string> }).scripts;

describe('job registry: every queue has a consumer in each mode', () => {
  it('each definition is keyed by its queue and validates with its JOB_PAYLOADS schema', () => {
    for (const queue of REGISTERED_QUEUES) {
      expect(JOB_REGISTRY[queue].queue).toBe(queue);
      expect(JOB_REGISTRY[queue].payload).toBe(JOB_PAYLOADS[queue]);
    }
  });

  it('production: each registered queue has its worker entrypoint, npm script and compose service', () => {
    for (const queue of REGISTERED_QUEUES) {
      expect(existsSync(new URL(`workers/src/entrypoints/${queue}.ts`, root)), `entrypoint for ${queue}`).toBe(true);
      expect(scripts[`start:${queue}`]).toContain(`src/entrypoints/${queue}.ts`);
      expect(compose).toContain(`start:${queue}`);
    }
  });

  it('every queue of JOB_PAYLOADS is registered (no queue without a consumer)', () => {
    const inactive = QUEUE_NAMES.filter((queue) => !(REGISTERED_QUEUES as string[]).includes(queue));
    expect(inactive).toEqual([]);
  });

  it('embedded: the boot refuses handlers missing a registered queue', () => {
    const ports = {} as JobPorts;
    expect(() => consumedQueues({ mail: bindJob(JOB_REGISTRY.mail, ports) })).toThrow('no consumer for queue(s) ledes, annuities, patent-import, patent-export, patent-reminders, receipts');
  });

  it('SIGTERM: jobs are handed back before the grace ends, and compose waits longer than the grace', () => {
    expect(HAND_BACK_AFTER_MS).toBeLessThan(SHUTDOWN_GRACE_MS);
    const graces = [...compose.matchAll(/stop_grace_period: (\d+)s/g)].map((m) => Number(m[1]) * 1000);
    expect(graces).toHaveLength(REGISTERED_QUEUES.length);
    for (const grace of graces) expect(grace).toBeGreaterThan(SHUTDOWN_GRACE_MS);
  });
});
