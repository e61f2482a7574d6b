import { defineConfig } from 'vitest/config';

// One project per workspace; each may refine its own settings in a vitest.config.ts beside its package.json.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/api', 'apps/api/test/faults', 'apps/web', 'workers', 'e2e'],
  },
});
