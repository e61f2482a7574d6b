import { afterAll, beforeAll, describe } from 'vitest';
import { testDatabaseBaseUrl } from '@portal/db/testing';
import { faultSuiteUnavailable, startFaultTopology, type FaultTopology, type TopologyOptions } from '../support/fault-topology.ts';

/** Why the suite skips here: it runs where the PostgreSQL suites run and PostgreSQL's binaries are installed. */
function skipReason(): string | null {
  if (!testDatabaseBaseUrl()) return 'no TEST_DATABASE_URL: the PostgreSQL suites are off';
  return faultSuiteUnavailable();
}

/**
 * One fault scenario on its own production topology (started before, torn down after). The body
 * declares its tests with `its`, reading the topology through the getter once it is up.
 */
export function describeFault(title: string, options: TopologyOptions, body: (topology: () => FaultTopology) => void): void {
  const reason = skipReason();
  if (reason) console.warn(`[faults] ${title}: skipped, ${reason}`);
  describe.skipIf(reason !== null)(reason ? `${title} (skipped: ${reason})` : title, () => {
    let topology: FaultTopology | undefined;
    beforeAll(async () => {
      topology = await startFaultTopology(options);
    });
    afterAll(async () => {
      await topology?.cleanup();
    });
    body(() => {
      if (!topology) throw new Error('the fault topology did not start');
      return topology;
    });
  });
}

/** The stream every scenario runs its fault under: ~20 s of uploads, logins and reset mails. */
export const STREAM = { files: 24, durationMs: 20_000, mails: 4, logins: 10 } as const;
