import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
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
      // The script runs the entrypoint's bundle (scripts/build-server.mjs builds one per entrypoint, decision 231).
      expect(scripts[`start:${queue}`]).toContain(`dist/server/worker-${queue}.mjs`);
      expect(compose).toContain(`start:${queue}`);
    }
  });

  it('every queue of JOB_PAYLOADS is registered (no queue without a consumer)', () => {
    const inactive = QUEUE_NAMES.filter((queue) => !(REGISTERED_QUEUES as string[]).includes(queue));
    expect(inactive).toEqual([]);
  });

  it('embedded: the boot refuses handlers missing a registered queue', () => {
    const ports = {} as JobPorts;
    expect(() => consumedQueues({ mail: bindJob(JOB_REGISTRY.mail, ports) })).toThrow('no consumer for queue(s) ledes, annuities, patent-import, patent-export, patent-reminders, receipts, ledes-digest, register-sync, renewal-calls');
  });

  it('SIGTERM: jobs are handed back before the grace ends, and compose waits longer than the grace', () => {
    expect(HAND_BACK_AFTER_MS).toBeLessThan(SHUTDOWN_GRACE_MS);
    const workers = workerServices();
    expect(Object.keys(workers)).toHaveLength(REGISTERED_QUEUES.length);
    for (const [name, service] of Object.entries(workers)) {
      const grace = /^(\d+)s$/.exec(service.stop_grace_period ?? '');
      expect(grace, `${name}: stop_grace_period`).not.toBeNull();
      expect(Number(grace![1]) * 1000, name).toBeGreaterThan(SHUTDOWN_GRACE_MS);
    }
  });

  it('scaling and health: each worker service has its health port, a /readyz healthcheck, no container_name and no published port', () => {
    for (const [name, service] of Object.entries(workerServices())) {
      const port = service.environment?.WORKER_HTTP_PORT;
      expect(port, `${name}: WORKER_HTTP_PORT`).toMatch(/^\d+$/);
      expect(JSON.stringify(service.healthcheck?.test), name).toContain(`127.0.0.1:${port}/readyz`);
      expect(service.container_name, name).toBeUndefined();
      expect(service.ports, name).toBeUndefined();
    }
  });
});

interface ComposeService {
  command?: string[];
  environment?: Record<string, string>;
  stop_grace_period?: string;
  healthcheck?: { test?: string[] };
  container_name?: string;
  ports?: unknown;
}

/** The compose services that start a worker entrypoint (`start:<queue>`), anchors merged. */
function workerServices(): Record<string, ComposeService> {
  const services = (parse(compose, { merge: true }) as { services: Record<string, ComposeService> }).services;
  return Object.fromEntries(Object.entries(services).filter(([, service]) => REGISTERED_QUEUES.some((queue) => service.command?.includes(`start:${queue}`))));
}
