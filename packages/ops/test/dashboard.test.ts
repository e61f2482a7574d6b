import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../src/metrics.ts';

const dashboard = JSON.parse(readFileSync(new URL('../../../deploy/grafana-dashboard.json', import.meta.url), 'utf8')) as {
  panels: Array<{ type: string; title: string; targets?: Array<{ expr: string }> }>;
};

describe('deploy/grafana-dashboard.json', () => {
  it('queries only series the portal exports (no panel left on a renamed metric)', async () => {
    const metrics = createMetrics({ service: 'api', queueDepth: { queues: [], counts: () => Promise.reject(new Error('unused')) }, sockets: () => 0 });
    // The runs gauge needs a database; its name is checked against the module's export below.
    const names = new Set((await metrics.registry.getMetricsAsJSON()).map((m) => m.name));
    names.add('portal_runs');
    const used = dashboard.panels.flatMap((p) => (p.targets ?? []).flatMap((t) => [...t.expr.matchAll(/\b((?:portal|process|nodejs)_[a-z0-9_]+)/g)].map((m) => m[1]!)));
    expect(used.length).toBeGreaterThan(10);
    const unknown = used.map((name) => name.replace(/_(bucket|count|sum)$/, '')).filter((name) => !names.has(name));
    expect(unknown).toEqual([]);
  });

  it('covers HTTP rate and p95 by route, queue depth, job duration and outcome, runs per state, sockets', () => {
    const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr)).join('\n');
    for (const needle of ['portal_http_request_duration_seconds_count', 'histogram_quantile(0.95, sum by (le, route)', 'portal_queue_jobs', 'portal_job_duration_seconds_bucket', 'outcome', 'portal_runs', 'portal_socketio_connections']) {
      expect(exprs).toContain(needle);
    }
  });
});
