import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e', setupFiles: ['../scripts/vitest/no-max-listeners.ts'],
    include: ['test/**/*.e2e.test.ts'],
    environment: 'node',
    globalSetup: ['./src/global-setup.ts'],
    testTimeout: 60_000,
    // Building the web app and starting the portal can take a while on a cold machine.
    hookTimeout: 240_000,
    fileParallelism: false,
  },
});
