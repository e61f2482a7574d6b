import { describe, expect, it } from 'vitest';
import { OWN_FAULT_SUITES, registeredRunKinds, RUN_KIND_FAULTS, runKindGaps, runTablesOfSchema } from '../support/run-kinds.ts';

/** The fault suite covers every run kind: one description per registered kind, none left over. */
describe('the fault suite’s run kinds', () => {
  it('describes every run kind of the registry, and every table with the run lifecycle', () => {
    expect(runKindGaps()).toEqual([]);
    // Every kind is described here, or listed with the suite of its own that tests its faults (and what that lacks).
    const own = Object.entries(OWN_FAULT_SUITES);
    expect([...RUN_KIND_FAULTS.map((k) => k.queue), ...own.map(([queue]) => queue)].sort()).toEqual(registeredRunKinds().sort());
    expect(runTablesOfSchema()).toEqual([...RUN_KIND_FAULTS.map((k) => k.table), ...own.map(([, k]) => k.table)].sort());
    for (const [queue, k] of own) expect(k.why, queue).toMatch(/Missing: /);
  });

  it('names a registered kind left without a description (the fault files then fail to load)', () => {
    for (const left of RUN_KIND_FAULTS) {
      const gaps = runKindGaps(RUN_KIND_FAULTS.filter((k) => k !== left));
      expect(gaps.some((gap) => gap.startsWith(`run kind ${left.queue} is registered`))).toBe(true);
      expect(gaps.some((gap) => gap.startsWith(`table ${left.table} has the run lifecycle`))).toBe(true);
    }
  });
});
