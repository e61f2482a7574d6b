import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'web', setupFiles: ['../../scripts/vitest/no-max-listeners.ts'], include: ['test/**/*.test.ts'], environment: 'node' },
});
