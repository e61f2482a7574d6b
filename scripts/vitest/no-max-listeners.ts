/**
 * Every Vitest project's setup file (issue 28): a test file in whose process Node warns that an
 * emitter got more listeners than its limit (`MaxListenersExceededWarning`: a listener added per
 * chunk, per request, per run and never removed) fails, naming the warning. The processes the tests
 * start are held to the same rule by `startProcess` (apps/api/test/support/processes.ts).
 */
import { afterAll } from 'vitest';

export const MAX_LISTENERS_WARNING = 'MaxListenersExceededWarning';

const seen: string[] = [];
const onWarning = (warning: Error) => {
  if (warning.name === MAX_LISTENERS_WARNING) seen.push(warning.message);
};
process.on('warning', onWarning);

afterAll(async () => {
  // A warning is emitted on the next tick after the listener that crossed the limit was added.
  await new Promise((resolve) => setImmediate(resolve));
  // One listener per file: the process may run several files one after the other.
  process.off('warning', onWarning);
  if (seen.length > 0) throw new Error(`${MAX_LISTENERS_WARNING} during this test file (a listener leak):\n${[...new Set(seen)].join('\n')}`);
});
