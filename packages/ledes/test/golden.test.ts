import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GOLDEN_FILE, renderAll } from './golden.ts';

describe('golden findings', () => {
  it('the engine gives exactly the committed findings on the samples and the damaged generated files', async () => {
    const actual = await renderAll();
    if (process.env.GOLDEN_UPDATE === '1') writeFileSync(GOLDEN_FILE, actual);
    const expected = readFileSync(GOLDEN_FILE, 'utf8');
    // Compared case by case first, so a difference names its case.
    const split = (s: string) => s.split('\n\n');
    const a = split(actual);
    const e = split(expected);
    for (let i = 0; i < Math.max(a.length, e.length); i++) expect(a[i], `case ${i}`).toBe(e[i]);
    expect(actual).toBe(expected);
  }, 120_000);
});
