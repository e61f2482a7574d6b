import { defineConfig } from 'vitest/config';

// One project per workspace; each may refine its own settings in a vitest.config.ts beside its package.json.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/api', 'apps/api/test/faults', 'apps/web', 'workers', 'e2e', 'scripts'],
    // One test file per core. Vitest's default in run mode is one fewer than the cores, which on a two-core
    // machine (CI, this project's machines) ran every file one after the other; most files wait on processes
    // they start (the portal, Redis, PostgreSQL) more than they compute. The end-to-end and fault projects
    // (`fileParallelism: false`) still run their files one at a time, after the others and never beside them:
    // Vitest puts every single-worker project into one last group (decision 142).
    maxWorkers: '100%',
  },
});
