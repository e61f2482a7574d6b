import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** The two chains that run their files one at a time: the end-to-end and the fault suites. */
const CHAINS = ['apps/api/test/faults', 'e2e'];

// One project per workspace; each may refine its own settings in a vitest.config.ts beside its package.json.
// `npm test` (scripts/test.mjs) runs the suite in two steps (decision 173): every other project first, with
// TEST_WITHOUT_CHAINS=1, then the two chains side by side, each in a Vitest of its own (`--project e2e`,
// `--project faults`). A plain `npx vitest run` still runs everything in one Vitest.
const projects = ['packages/*', 'apps/api', 'apps/web', 'workers', 'scripts', ...(process.env.TEST_WITHOUT_CHAINS === '1' ? [] : CHAINS)];

export default defineConfig({
  test: {
    projects,
    // One test file per core and one more. Vitest's default in run mode is one fewer than the cores, which on a
    // two-core machine (CI, this project's machines) ran every file one after the other; most files wait on
    // processes they start (the portal, Redis, PostgreSQL) or on a retry's back-off more than they compute, and
    // with a file per core the machine was still idle 14 % of the time (decision 236). The end-to-end and fault
    // projects run their files one at a time unless told otherwise; in one Vitest they come after the others,
    // one chain after the other (Vitest puts every single-worker project into one last group, decision 142),
    // hence the two steps of scripts/test.mjs.
    maxWorkers: availableParallelism() + 1,
  },
});
