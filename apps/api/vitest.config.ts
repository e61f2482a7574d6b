import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'api', setupFiles: ['../../scripts/vitest/no-max-listeners.ts'],
    include: ['test/**/*.test.ts'],
    // The fault suite is its own project (test/faults/vitest.config.ts): its files run one at a time.
    exclude: [...configDefaults.exclude, 'test/faults/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
