import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'xlsx', include: ['test/**/*.test.ts'] } });
