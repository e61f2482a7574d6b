import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'queue', include: ['test/**/*.test.ts'], testTimeout: 30000 } });
