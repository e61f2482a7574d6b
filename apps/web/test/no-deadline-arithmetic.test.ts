import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 25: every deadline the portal shows is the annuity engine's, computed on the server. The web
 * compares and formats the dates it is given; it never adds months or days to find a grace end, a
 * surcharge start or a limit date. This test reads the web's sources for the tools of such arithmetic.
 */
const SRC = join(import.meta.dirname, '..', 'src');

const FORBIDDEN: ReadonlyArray<readonly [RegExp, string]> = [
  [/\badd(Months|Days|Years)\b/, 'a date-adding helper'],
  [/\.set(UTC)?(Month|Date|FullYear)\(/, 'a Date setter (month or day arithmetic)'],
  [/86_?400_?000/, 'milliseconds per day (day arithmetic)'],
  [/Date\.UTC\(/, 'Date.UTC (building a computed day)'],
  [/\bGRACE_MONTHS\b|\bgraceMonths\b|\bnoSurchargeMonths\b/, 'a grace or surcharge period in months'],
  [/\binGrace\b|\bpastLimit\s*\(/, 'a grace or limit test on dates'],
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

describe('#25 the web does no deadline arithmetic', () => {
  it('no source of apps/web adds months or days to a date, or knows a grace period', () => {
    const findings: string[] = [];
    for (const file of sources(SRC)) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const [pattern, what] of FORBIDDEN) if (pattern.test(line)) findings.push(`${relative(SRC, file)}:${i + 1}: ${what}: ${line.trim()}`);
        });
    }
    expect(findings).toEqual([]);
  });

  it('the check itself finds what it forbids', () => {
    const sample = ['const end = addMonths(due, 6);', 'd.setUTCMonth(d.getUTCMonth() + 6);', 'const t = due + 7 * 86_400_000;', 'if (inGrace(row, today))'];
    for (const line of sample) expect(FORBIDDEN.some(([p]) => p.test(line)), line).toBe(true);
  });
});
