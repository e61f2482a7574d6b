import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'registers', setupFiles: ['../../scripts/vitest/no-max-listeners.ts'], include: ['test/**/*.test.ts'], testTimeout: 30000 } });
