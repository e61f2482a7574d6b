import { defineConfig } from 'vitest/config';

// The fault suite: each file starts its own production topology and breaks one dependency, so the
// files run one after the other (they would starve each other of CPU in parallel and turn slowness
// into false failures). Run alone with `npx vitest run --project faults` or `npx vitest run apps/api/test/faults`.
export default defineConfig({
  test: {
    name: 'faults', setupFiles: ['../../../../scripts/vitest/no-max-listeners.ts'],
    include: ['*.test.ts'],
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 300_000,
  },
});
