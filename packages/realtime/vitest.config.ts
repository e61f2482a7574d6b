import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'realtime', include: ['test/**/*.test.ts'], testTimeout: 30000 } });
