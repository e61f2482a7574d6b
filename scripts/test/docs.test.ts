import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { citedDecisions, generatedFiles, parseDecision, readDecisions, ROOT } from '../docs/generate.ts';

/** Where the code and the docs cite decisions by number. */
const CITING = ['apps', 'packages', 'workers', 'e2e', 'bench', 'scripts', 'docs'];
const SKIP = new Set(['node_modules', 'dist', 'coverage', 'test-results', 'artifacts', 'out', 'data']);
const TEXT = /\.(ts|tsx|js|mjs|cjs|md|json|ya?ml|css|html|sql)$/;

function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* walk(full);
    else if (TEXT.test(name)) yield full;
  }
}

describe('docs', () => {
  const decisions = readDecisions();

  it('the generated documents are the ones npm run docs:generate writes', () => {
    for (const [file, content] of generatedFiles()) {
      expect(readFileSync(path.join(ROOT, file), 'utf8'), `${file} is stale: run npm run docs:generate`).toBe(content);
    }
  }, 60_000);

  it('every decision file has its heading, status, date, topics and three sections', () => {
    expect(decisions.length).toBeGreaterThan(150);
    expect(decisions.filter((d) => d.problems.length > 0).map((d) => `${d.file}: ${d.problems.join('; ')}`)).toEqual([]);
  });

  it('no decision number is used twice, and a superseded one names a decision that exists', () => {
    const seen = new Map<number, string>();
    const twice: string[] = [];
    for (const d of decisions) {
      if (seen.has(d.number)) twice.push(`${d.number}: ${seen.get(d.number)} and ${d.file}`);
      seen.set(d.number, d.file);
    }
    expect(twice).toEqual([]);
    expect(decisions.filter((d) => d.supersededBy !== undefined && !seen.has(d.supersededBy)).map((d) => d.file)).toEqual([]);
  });

  it('every decision the code or the docs cite has its file', () => {
    const numbers = new Set(decisions.map((d) => d.number));
    const missing: string[] = [];
    let citations = 0;
    for (const top of CITING) {
      for (const file of walk(path.join(ROOT, top))) {
        for (const n of citedDecisions(readFileSync(file, 'utf8'))) {
          citations += 1;
          if (!numbers.has(n)) missing.push(`${path.relative(ROOT, file)}: decision ${n}`);
        }
      }
    }
    expect(citations).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });

  it('every relative link of the docs and the README points to a file that exists', () => {
    const pages = [...walk(path.join(ROOT, 'docs'))].filter((file) => file.endsWith('.md')).concat(path.join(ROOT, 'README.md'));
    const broken: string[] = [];
    for (const page of pages) {
      for (const match of readFileSync(page, 'utf8').matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        const target = match[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        if (!existsSync(path.resolve(path.dirname(page), target))) broken.push(`${path.relative(ROOT, page)}: ${target}`);
      }
    }
    expect(pages.length).toBeGreaterThan(150);
    expect(broken).toEqual([]);
  });

  it('reads the citation forms and refuses a malformed decision (the checks above can fail)', () => {
    expect(citedDecisions('as decision 12 says (decision 7); decisions 64, 70 and 3; see decisions 1–2. No decision here.')).toEqual([12, 7, 64, 70, 3, 1, 2]);
    const good = '# 007. A title\n- Status: superseded by 9\n- Date: 2026-11-27\n- Topics: jobs | api\n\n## Context\nc\n\n## Decision\nd\n\n## Consequences\ne\n';
    expect(parseDecision('007-a-title.md', good)).toMatchObject({ number: 7, status: 'superseded by 9', supersededBy: 9, topics: ['jobs', 'api'], problems: [] });
    expect(parseDecision('008-a-title.md', good).problems).toContain('the file name does not start with its number 007');
    expect(parseDecision('007-a.md', good.replace('superseded by 9', 'maybe')).problems).toHaveLength(1);
    expect(parseDecision('007-a.md', good.replace('## Consequences\ne\n', '')).problems).toEqual(['no "## Consequences" section']);
    expect(parseDecision('007-a.md', good.replace('## Decision\nd\n', '## Decision\n\n')).problems).toEqual(['the "## Decision" section is empty']);
    expect(parseDecision('007-a.md', good.replace('jobs | api', 'jobs | misc')).problems).toHaveLength(1);
  });
});
