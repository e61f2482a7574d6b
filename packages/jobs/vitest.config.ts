import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'jobs', include: ['test/**/*.test.ts'], testTimeout: 60_000 } });
