import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { bootScript, preloadMap } from '../boot-preload.ts';
import type { Manifest } from '../first-load.ts';
import { chooseInitialLanguage, LANGUAGE_STORAGE_KEY } from '../src/lib/language.ts';

/** A build's manifest in miniature: the shell, two languages, the login screen sharing a chunk with the shell. */
const MANIFEST: Manifest = {
  'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_runtime.js'], dynamicImports: ['src/lib/locales/en.ts', 'src/lib/locales/fr.ts', 'src/features/auth/LoginPage.tsx'] },
  '_runtime.js': { file: 'assets/runtime-1.js' },
  '_fields.js': { file: 'assets/fields-1.js', imports: ['_runtime.js'] },
  'src/lib/locales/en.ts': { file: 'assets/en-1.js', isDynamicEntry: true },
  'src/lib/locales/fr.ts': { file: 'assets/fr-1.js', isDynamicEntry: true },
  'src/features/auth/LoginPage.tsx': { file: 'assets/LoginPage-1.js', isDynamicEntry: true, imports: ['_fields.js', '_runtime.js'] },
  'src/features/home/HomePage.tsx': { file: 'assets/HomePage-1.js', isDynamicEntry: true, imports: ['_fields.js'] },
};

interface Visit {
  stored?: string | null;
  languages?: string[];
  pathname: string;
  storageThrows?: boolean;
}

/** Runs the boot script as a browser would, and answers the files it asked to preload. */
function run(script: string, visit: Visit): string[] {
  const links: { rel: string; href: string }[] = [];
  const document = {
    createElement: () => ({ rel: '', href: '' }),
    head: { appendChild: (link: { rel: string; href: string }) => links.push(link) },
  };
  const localStorage = {
    getItem: (key: string) => {
      if (visit.storageThrows) throw new Error('SecurityError');
      return key === LANGUAGE_STORAGE_KEY ? (visit.stored ?? null) : null;
    },
  };
  const navigator = { languages: visit.languages ?? [], language: visit.languages?.[0] ?? '' };
  runInNewContext(script, { document, localStorage, navigator, location: { pathname: visit.pathname } });
  expect(links.every((l) => l.rel === 'modulepreload')).toBe(true);
  return links.map((l) => l.href);
}

describe('boot preloader', () => {
  const script = bootScript(preloadMap(MANIFEST, ['/', '/login']));

  it("preloads the visitor's language and the landing screen's chunks beyond the shell", () => {
    expect(run(script, { languages: ['en-US'], pathname: '/login' })).toEqual(['/assets/en-1.js', '/assets/LoginPage-1.js', '/assets/fields-1.js']);
    expect(run(script, { languages: ['fr-FR'], pathname: '/login/' })).toEqual(['/assets/fr-1.js', '/assets/LoginPage-1.js', '/assets/fields-1.js']);
    // A screen it does not list: the language only (the shell fetches the rest).
    expect(run(script, { languages: ['fr-FR'], pathname: '/ledes/upload' })).toEqual(['/assets/fr-1.js']);
  });

  it("chooses the language by the app's own rule (chooseInitialLanguage)", () => {
    const cases: [string | null, string[]][] = [
      ['fr', ['en-US']],
      ['en', ['fr-FR']],
      [null, ['fr-CA', 'en']],
      [null, ['de-DE', 'fr']],
      [null, ['en-GB']],
      [null, ['de', 'es']],
      ['xx', []],
      [' FR-be ', []],
      [null, []],
    ];
    for (const [stored, languages] of cases) {
      const [first] = run(script, { stored, languages, pathname: '/nowhere' });
      expect(first, JSON.stringify([stored, languages])).toBe(`/assets/${chooseInitialLanguage(stored, languages)}-1.js`);
    }
  });

  it('a storage that refuses access (private mode) falls back to the browser languages', () => {
    expect(run(script, { storageThrows: true, languages: ['fr'], pathname: '/' })).toEqual(['/assets/fr-1.js', '/assets/HomePage-1.js', '/assets/fields-1.js']);
  });

  it('refuses a landing screen that is not a route of the router', () => {
    expect(() => preloadMap(MANIFEST, ['/nowhere'])).toThrow(/not a route/);
  });
});
