import { defineConfig } from 'vitest/config';

/**
 * The browser and fault chains: each project runs its files one at a time (`fileParallelism: false`), and Vitest
 * runs such projects only after every other one. `npm test` (scripts/test.mjs) therefore runs two Vitest processes
 * at once, `VITEST_PART=chains` and `VITEST_PART=rest`; without the variable, one process runs everything.
 */
const CHAINS = ['e2e', 'apps/api/test/faults'];
/** One project per workspace; each may refine its own settings in a vitest.config.ts beside its package.json. */
const REST = ['packages/*', 'apps/api', 'apps/web', 'workers'];

const part = process.env.VITEST_PART;

export default defineConfig({
  test: {
    projects: part === 'chains' ? CHAINS : part === 'rest' ? REST : [...REST, ...CHAINS],
    // One test file per core. Vitest's default in run mode is one fewer than the cores, which on a two-core
    // machine (CI, this project's machines) ran every file one after the other; most files wait on processes
    // they start (the portal, Redis, PostgreSQL) more than they compute.
    maxWorkers: '100%',
  },
});
