import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ESM script of the test runner, without types
import { FAILURE_LINES, summarize } from '../test-summary.mjs';

type Run = { report: string; status: number; unhandled: string[]; json: string | undefined };
type Summary = { lines: string[]; missingReport: boolean };
const summary = summarize as (runs: Run[], cwd: string) => Summary;

const CWD = '/check/repo';

function report(testResults: unknown[], counts: { passed?: number; failed?: number; pending?: number } = {}): string {
  return JSON.stringify({
    numPassedTests: counts.passed ?? 0,
    numFailedTests: counts.failed ?? 0,
    numPendingTests: counts.pending ?? 0,
    numTodoTests: 0,
    testResults,
  });
}

describe('the closing summary of npm test', () => {
  it('names each failed test with its file and the first lines of its failure, colours stripped', () => {
    const message = ['\u001b[31mAssertionError: expected 1 to be 2\u001b[39m', '', ...Array.from({ length: 20 }, (_, i) => `    at line ${i}`)].join('\n');
    const json = report([
      {
        name: `${CWD}/apps/api/test/maintenance.test.ts`,
        status: 'failed',
        assertionResults: [
          { status: 'passed', fullName: 'maintenance passes', failureMessages: [] },
          { status: 'failed', fullName: 'maintenance vacuums the second pass', failureMessages: [message] },
        ],
      },
    ], { passed: 1, failed: 1 });
    const { lines, missingReport } = summary([{ report: 'test-results/vitest.json', status: 1, unhandled: [], json }], CWD);
    expect(missingReport).toBe(false);
    expect(lines[1]).toBe('1 passed, 1 failed, 0 skipped');
    expect(lines[2]).toBe('  ✗ apps/api/test/maintenance.test.ts › maintenance vacuums the second pass');
    expect(lines[3]).toBe('      AssertionError: expected 1 to be 2');
    expect(lines.slice(3)).toHaveLength(FAILURE_LINES);
    expect(lines.join('\n')).not.toContain('passes');
  });

  it('adds up the runs and says why a run failed with no failed test', () => {
    const runs: Run[] = [
      { report: 'test-results/vitest.json', status: 0, unhandled: [], json: report([], { passed: 10, pending: 2 }) },
      {
        report: 'test-results/vitest-e2e.json',
        status: 1,
        unhandled: ['⎯⎯ Unhandled Rejection ⎯⎯', 'Error: annuity run abandoned'],
        json: report([], { passed: 5 }),
      },
      {
        report: 'test-results/vitest-faults.json',
        status: 1,
        unhandled: [],
        json: report([{ name: `${CWD}/workers/test/chain.test.ts`, status: 'failed', message: 'Cannot find module', assertionResults: [] }]),
      },
      { report: 'test-results/missing.json', status: 137, unhandled: [], json: undefined },
    ];
    const { lines, missingReport } = summary(runs, CWD);
    expect(missingReport).toBe(true);
    expect(lines).toEqual([
      '',
      '15 passed, 0 failed, 2 skipped, 3 other failures',
      '  - test-results/vitest-e2e.json: the Vitest exited 1 with every test passed: an unhandled error, as Vitest printed it:',
      '  - workers/test/chain.test.ts: failed outside its tests: Cannot find module',
      '  - test-results/missing.json: missing (the Vitest exited 137 before writing it)',
      '    ⎯⎯ Unhandled Rejection ⎯⎯',
      '    Error: annuity run abandoned',
    ]);
  });
});
