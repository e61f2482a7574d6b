import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { NAMESPACES } from '@portal/i18n';
import { APP_NAMESPACES, CORE_NAMESPACES, i18nReady, loadAppBundle, loadAppTexts, loadLanguageBundle, loadNamespace, switchLanguage, WEB_NAMESPACES } from '../src/lib/i18n.ts';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const full = path.join(dir, f);
    return statSync(full).isDirectory() ? sources(full) : /\.tsx?$/.test(f) ? [full] : [];
  });
}

describe('language chunks of the web', () => {
  it('hold every namespace a screen asks for, and no server-only one', async () => {
    const used = new Set(sources(SRC).flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/useTranslation\('([a-z]+)'/g)].map((m) => m[1]!)));
    for (const ns of used) expect(WEB_NAMESPACES, ns).toContain(ns);
    for (const ns of ['errors', 'emails', 'api']) expect(WEB_NAMESPACES).not.toContain(ns);
    for (const ns of WEB_NAMESPACES) expect(NAMESPACES).toContain(ns);
    // The language chunk carries the core namespaces only; the patent screens' come with them.
    for (const lang of ['en', 'fr'] as const) expect(Object.keys(await loadLanguageBundle(lang)).sort()).toEqual([...CORE_NAMESPACES].sort());
    for (const lang of ['en', 'fr'] as const) expect(Object.keys(await loadAppBundle(lang)).sort()).toEqual([...APP_NAMESPACES].sort());
  });

  it('the landing screens and the frame use the core texts only (the app texts are not loaded for them)', () => {
    const router = readFileSync(path.join(SRC, 'app/router.tsx'), 'utf8');
    // The modules of the routes marked texts: 'core', by their screen's name in the router.
    const coreScreens = [...router.matchAll(/screen: screens\.(\w+), texts: 'core'/g)].map((m) => m[1]!);
    expect(coreScreens).toEqual(expect.arrayContaining(['home', 'login', 'forgotPassword', 'resetPassword']));
    const modules = coreScreens.map((name) => {
      const line = router.match(new RegExp(`\\n  ${name}: \\(\\) => .*?import\\('\\.\\./(features/[^']+)'\\)`));
      expect(line, name).not.toBeNull();
      return path.join(SRC, line![1]!);
    });
    const files = [...modules, ...['app', 'components', 'lib'].flatMap((dir) => sources(path.join(SRC, dir)))].filter((f) => !f.includes(`${path.sep}locales${path.sep}`));
    const app = APP_NAMESPACES.join('|');
    const uses = new RegExp(`useTranslation\\('(${app})'|['\`](${app}):[a-zA-Z]|ns: '(${app})'`);
    expect(files.filter((f) => uses.test(readFileSync(f, 'utf8'))).map((f) => path.relative(SRC, f))).toEqual([]);
  });

  it('a switch applies only once the other language is loaded: the old texts until then, never keys', async () => {
    await i18nReady;
    await switchLanguage('en');
    expect(i18next.t('nav.login')).toBe('Log in');
    const switching = switchLanguage('fr');
    // Still loading: the screen keeps English.
    expect(i18next.t('nav.login')).toBe('Log in');
    await switching;
    expect(i18next.language).toBe('fr');
    expect(i18next.t('nav.login')).toBe('Se connecter');
    expect(i18next.t('login.title', { ns: 'auth' })).not.toBe('login.title');
  });

  it('the app texts come in one load and follow a language switch', async () => {
    await i18nReady;
    await switchLanguage('en');
    await loadAppTexts();
    for (const ns of APP_NAMESPACES) expect(i18next.hasResourceBundle('en', ns), ns).toBe(true);
    const english = i18next.t('upload.title', { ns: 'ledes' });
    expect(english).not.toBe('upload.title');
    await switchLanguage('fr');
    expect(i18next.t('upload.title', { ns: 'ledes' })).not.toBe(english);
    expect(i18next.t('upload.title', { ns: 'ledes' })).not.toBe('upload.title');
    await switchLanguage('en');
  });

  // After the switch test above, which needs French not loaded yet.
  it('a lazy namespace is there once loaded, and follows a language switch (never keys)', async () => {
    await i18nReady;
    await switchLanguage('en');
    expect(i18next.hasResourceBundle('en', 'patents')).toBe(false);
    await loadNamespace('patents');
    expect(i18next.t('add.title', { ns: 'patents' })).toBe('Add a patent');
    await switchLanguage('fr');
    expect(i18next.t('add.title', { ns: 'patents' })).not.toBe('add.title');
    expect(i18next.t('add.title', { ns: 'patents' })).not.toBe('Add a patent');
    await switchLanguage('en');
  });
});
