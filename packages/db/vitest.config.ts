import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'db', setupFiles: ['../../scripts/vitest/no-max-listeners.ts'], include: ['test/**/*.test.ts'], testTimeout: 180_000, hookTimeout: 180_000 } });
