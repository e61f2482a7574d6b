import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'ledes', include: ['test/**/*.test.ts'] } });
