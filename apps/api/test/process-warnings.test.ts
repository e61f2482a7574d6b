import { describe, expect, it } from 'vitest';
import { startProcess } from './support/processes.ts';

describe('processes started for tests (issue 28)', () => {
  it('fail on a MaxListenersExceededWarning in their output: waitFor and stop reject, naming it', async () => {
    const leaky = startProcess('apps/api/test/fixtures/listener-leak.ts', {});
    await expect(leaky.waitFor(/listeners added/, 60_000)).rejects.toThrow(/listener leak warning: MaxListenersExceededWarning.*11 drain listeners/);
    await expect(leaky.stop()).rejects.toThrow(/MaxListenersExceededWarning/);
  }, 90_000);

  it('are left alone when they stay within the limit', async () => {
    const quiet = startProcess('apps/api/test/fixtures/listener-leak.ts', { LEAK: '0' });
    await quiet.waitFor(/listeners added/, 60_000);
    await quiet.stop();
    expect(quiet.output()).not.toMatch(/Warning/);
  }, 90_000);
});
