import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RULES } from '../src/index.ts';
import { END, rulesTable, START } from '../scripts/readme-rules.ts';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('holds the rule table generated from the catalogue (run `npm run readme -w @portal/ledes`)', () => {
    const table = readme.slice(readme.indexOf(START), readme.indexOf(END) + END.length);
    expect(table).toBe(rulesTable());
    for (const r of RULES) expect(table).toContain(`| ${r.code} |`);
  });

  it('documents the line-number convention', () => {
    expect(readme).toContain('0-based data-line index');
    expect(readme).toContain('line + 1');
  });
});
