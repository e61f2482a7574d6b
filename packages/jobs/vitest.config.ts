import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'jobs', setupFiles: ['../../scripts/vitest/no-max-listeners.ts'], include: ['test/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 } });
