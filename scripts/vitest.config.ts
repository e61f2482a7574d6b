import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'scripts', setupFiles: ['./vitest/no-max-listeners.ts'], include: ['test/**/*.test.ts'] } });
