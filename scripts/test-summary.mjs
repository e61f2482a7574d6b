// The closing lines of `npm test` (scripts/test.mjs), from each Vitest's JSON report: a CI log is often read from
// its tail only, so the tail names every failed test with the first lines of its failure, every file that failed
// outside its tests, and every Vitest that exited non-zero with all its tests passed (an unhandled error).

/** How many lines of a failed test's message the summary repeats. */
export const FAILURE_LINES = 8;

const ANSI = /\u001b\[[0-9;]*m/g;

/**
 * @param {{ report: string, status: number, unhandled: string[], json: string | undefined }[]} runs
 *   each Vitest: its report's path, its exit status, the "Unhandled Errors" lines it printed, the report's text
 *   (undefined when it wrote none)
 * @param {string} cwd stripped from the files' paths
 * @returns {{ lines: string[], missingReport: boolean }}
 */
export function summarize(runs, cwd) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let missingReport = false;
  const relative = (file) => file.replace(`${cwd}/`, '');
  /** Each failed test, named with its file, and the first lines of its failure. */
  const failures = [];
  // Why a Vitest failed when no test did: a file that failed outside its tests (an import, a hook), or an error
  // thrown after a test ended (Vitest's "Unhandled Errors"). Each is named, so a red run always says why.
  const reasons = [];
  /** What Vitest printed of the unhandled errors, repeated after the reasons. */
  const details = [];
  for (const { report, status, unhandled, json } of runs) {
    if (json === undefined) {
      missingReport = true;
      reasons.push(`${report}: missing (the Vitest exited ${status} before writing it)`);
      continue;
    }
    const r = JSON.parse(json);
    passed += r.numPassedTests ?? 0;
    failed += r.numFailedTests ?? 0;
    skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    for (const file of r.testResults ?? []) {
      for (const test of file.assertionResults ?? []) {
        if (test.status !== 'failed') continue;
        const message = (test.failureMessages ?? []).join('\n').replace(ANSI, '').split('\n').filter((l) => l.trim() !== '');
        failures.push({ name: `${relative(file.name)} › ${test.fullName ?? test.title}`, lines: message.slice(0, FAILURE_LINES) });
      }
    }
    const files = (r.testResults ?? []).filter((f) => f.status === 'failed' && !(f.assertionResults ?? []).some((t) => t.status === 'failed'));
    for (const f of files) reasons.push(`${relative(f.name)}: failed outside its tests: ${f.message || '(no message)'}`);
    if (status !== 0 && (r.numFailedTests ?? 0) === 0 && files.length === 0) {
      reasons.push(`${report}: the Vitest exited ${status} with every test passed: an unhandled error${unhandled.length > 0 ? ', as Vitest printed it:' : ' (search "Unhandled" above)'}`);
      details.push(...unhandled);
    }
  }
  const others = reasons.length > 0 ? `, ${reasons.length} other failure${reasons.length === 1 ? '' : 's'}` : '';
  const lines = ['', `${passed} passed, ${failed} failed, ${skipped} skipped${others}`];
  for (const { name, lines: message } of failures) {
    lines.push(`  ✗ ${name}`);
    for (const line of message) lines.push(`      ${line}`);
  }
  for (const reason of reasons) lines.push(`  - ${reason}`);
  for (const line of details) lines.push(`    ${line}`);
  return { lines, missingReport };
}
