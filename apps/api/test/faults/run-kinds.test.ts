import { describe, expect, it } from 'vitest';
import { registeredRunKinds, RUN_KIND_FAULTS, runKindGaps, runTablesOfSchema } from '../support/run-kinds.ts';

/** The fault suite covers every run kind: one description per registered kind, none left over. */
describe('the fault suite’s run kinds', () => {
  it('describes every run kind of the registry, and every table with the run lifecycle', () => {
    expect(runKindGaps()).toEqual([]);
    expect(RUN_KIND_FAULTS.map((k) => k.queue).sort()).toEqual(registeredRunKinds().sort());
    expect(runTablesOfSchema()).toEqual(RUN_KIND_FAULTS.map((k) => k.table).sort());
  });

  it('names a registered kind left without a description (the fault files then fail to load)', () => {
    for (const left of RUN_KIND_FAULTS) {
      const gaps = runKindGaps(RUN_KIND_FAULTS.filter((k) => k !== left));
      expect(gaps.some((gap) => gap.startsWith(`run kind ${left.queue} is registered`))).toBe(true);
      expect(gaps.some((gap) => gap.startsWith(`table ${left.table} has the run lifecycle`))).toBe(true);
    }
  });
});
