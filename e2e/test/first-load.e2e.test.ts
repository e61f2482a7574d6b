import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { entryKey, firstLoad, LOCALE_MODULES, readManifest, ROUTE_MODULES, staticClosure } from '../../apps/web/first-load.ts';
import { ANNUITIES_LANDING, launchBrowser, loginAsAdmin, newContext, portal } from '../src/browser.ts';

/**
 * The first load of the built web app (issue 9): what a cold visit to /login downloads, read from
 * the Vite manifest of the build the suite serves, and what the portal sends for it.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = path.join(ROOT, 'apps/web/dist');
const LOCALES = path.join(ROOT, 'packages/i18n/locales');
// The server's namespaces (rendered by the API, never shipped); every other one is the web's (apps/web/src/lib/i18n.ts).
const SERVER_NAMESPACES = ['errors', 'emails', 'api'];
const WEB_NAMESPACES = readdirSync(path.join(LOCALES, 'en'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -'.json'.length))
  .filter((ns) => !SERVER_NAMESPACES.includes(ns));
const FIRST_LOAD_BROTLI_BUDGET = 150 * 1024;

function texts(file: string): string[] {
  const walk = (v: unknown): string[] => (typeof v === 'string' ? [v] : v && typeof v === 'object' ? Object.values(v).flatMap(walk) : []);
  return walk(JSON.parse(readFileSync(file, 'utf8')));
}
/** Texts of `files` long enough to be specific and found in none of `others`. */
function distinctive(files: string[], others: string[]): string[] {
  const exclude = new Set(others.flatMap(texts));
  return files.flatMap(texts).filter((s) => s.length >= 20 && !exclude.has(s) && !s.includes('{{'));
}
const read = (file: string) => readFileSync(path.join(DIST, file), 'utf8');
const inJs = (js: string, text: string) => js.includes(text) || js.includes(JSON.stringify(text).slice(1, -1));

describe('first load of /login (built web app)', () => {
  let login: ReturnType<typeof firstLoad>;
  let firstJs: string;
  let allJs: string;
  beforeAll(() => {
    login = firstLoad(DIST, ROUTE_MODULES['/login']!, 'en');
    firstJs = login.js.map((f) => read(f.file)).join('\n');
    allJs = readdirSync(path.join(DIST, 'assets'))
      .filter((f) => f.endsWith('.js'))
      .map((f) => read(`assets/${f}`))
      .join('\n');
  });

  it('every screen is its own chunk, outside the entry and its static imports', () => {
    const manifest = readManifest(DIST);
    const entry = staticClosure(manifest, [entryKey(manifest)]);
    for (const [route, module] of Object.entries(ROUTE_MODULES)) {
      expect(manifest[module]?.isDynamicEntry, route).toBe(true);
      expect(entry, route).not.toContain(module);
    }
    // ROUTE_MODULES follows the router: every screen it imports is listed.
    const router = readFileSync(path.join(ROOT, 'apps/web/src/app/router.tsx'), 'utf8');
    const imported = [...router.matchAll(/import\('\.\.\/(features\/[^']+)'\)/g)].map((m) => `src/${m[1]}`);
    expect(new Set(imported)).toEqual(new Set(Object.values(ROUTE_MODULES)));
  });

  it('carries no zod, no socket.io client and no French chunk, and stays under 150 KB brotli', () => {
    expect(allJs).toContain('$ZodError'); // the marker exists in the build (the forms' chunks)
    expect(firstJs).not.toContain('$ZodError');
    expect(allJs).toContain('socket.io');
    expect(firstJs).not.toContain('socket.io');
    expect(login.chunks).toContain(LOCALE_MODULES.en);
    expect(login.chunks).not.toContain(LOCALE_MODULES.fr);
    const french = distinctive(
      WEB_NAMESPACES.map((ns) => path.join(LOCALES, 'fr', `${ns}.json`)),
      WEB_NAMESPACES.map((ns) => path.join(LOCALES, 'en', `${ns}.json`)),
    );
    expect(french.length).toBeGreaterThan(20);
    expect(french.filter((t) => inJs(allJs, t)).length).toBeGreaterThan(0);
    expect(french.filter((t) => inJs(firstJs, t))).toEqual([]);
    expect(login.total.brotli).toBeLessThan(FIRST_LOAD_BROTLI_BUDGET);
  });

  it('never ships the server-only namespaces (errors, emails, api) to the browser', () => {
    const webFiles = WEB_NAMESPACES.flatMap((ns) => ['en', 'fr'].map((l) => path.join(LOCALES, l, `${ns}.json`)));
    const server = distinctive(
      SERVER_NAMESPACES.flatMap((ns) => ['en', 'fr'].map((l) => path.join(LOCALES, l, `${ns}.json`))).filter((f) => existsSync(f)),
      webFiles,
    );
    expect(server.length).toBeGreaterThan(10);
    expect(server.filter((t) => inJs(allJs, t))).toEqual([]);
  });
});

describe('the portal sends the build compressed and cached right', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a cold visit to /login gets its scripts and stylesheets compressed, hashed assets immutable, the shell no-cache', async () => {
    const context = await newContext(browser, { lang: 'en' });
    const page = await context.newPage();
    const answers: { url: string; encoding?: string; cache?: string; length: number }[] = [];
    page.on('response', (res) => {
      const h = res.headers();
      answers.push({ url: new URL(res.url()).pathname, encoding: h['content-encoding'], cache: h['cache-control'], length: Number(h['content-length'] ?? 0) });
    });
    const doc = await page.goto('/login');
    await page.locator('input[name="email"]').waitFor();
    expect(doc?.headers()['cache-control']).toBe('no-cache');
    const assets = answers.filter((a) => /^\/assets\/.+\.(?:js|css)$/.test(a.url));
    expect(assets.length).toBeGreaterThan(2);
    for (const a of assets) {
      expect(a.cache, a.url).toBe('public, max-age=31536000, immutable');
      // The build leaves files under 1 KB uncompressed.
      if (a.encoding === undefined) expect(a.length, a.url).toBeLessThan(1024);
      else expect(a.encoding, a.url).toBe('br');
    }
    expect(answers.some((a) => /\/locales?\/|\/fr-[\w-]+\.js$/.test(a.url))).toBe(false);
    await context.close();
  });

  it("the boot script preloads the visitor's language and the landing screen beside the shell, each file fetched once", async () => {
    const manifest = readManifest(DIST);
    const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');
    // Loaded async and ahead of the shell, so its preloads start while the shell downloads.
    expect(html.indexOf('<script async src="/assets/boot-')).toBeGreaterThan(0);
    expect(html.indexOf('<script async src="/assets/boot-')).toBeLessThan(html.indexOf('<script type="module"'));
    const context = await newContext(browser, { lang: 'fr' });
    const page = await context.newPage();
    const fetched: string[] = [];
    page.on('request', (req) => fetched.push(new URL(req.url()).pathname));
    await page.goto('/login');
    await page.locator('input[name="email"]').waitFor();
    await page.waitForLoadState('networkidle');
    const file = (module: string) => `/${manifest[module]!.file}`;
    expect(fetched).toContain(file(LOCALE_MODULES.fr));
    expect(fetched).not.toContain(file(LOCALE_MODULES.en));
    expect(fetched).toContain(file(ROUTE_MODULES['/login']!));
    // A preloaded module is not fetched again by the import that uses it.
    const twice = fetched.filter((url, i) => url.startsWith('/assets/') && fetched.indexOf(url) !== i);
    expect(twice).toEqual([]);
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    // The preload links are the boot script's: the shell's import() of a chunk adds none for the chunk itself.
    const links = await page.$$eval('link[rel="modulepreload"]', (els) => els.map((el) => new URL((el as HTMLLinkElement).href).pathname));
    expect(links).toEqual(expect.arrayContaining([file(LOCALE_MODULES.fr), file(ROUTE_MODULES['/login']!)]));
    await context.close();
  });

  it('the shell answers gzip to a client without brotli and plain text to one without either', async () => {
    const { baseUrl } = portal();
    const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');
    const entry = /<script type="module"[^>]+src="([^"]+)"/.exec(html)![1]!;
    const gz = await fetch(`${baseUrl}${entry}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(gz.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await gz.text()).toBe(read(entry.slice(1)));
    const plain = await fetch(`${baseUrl}${entry}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
  });

  it('the login form shows while the session check is still pending; a session found then sends the visitor home', async () => {
    const context = await newContext(browser, { lang: 'en' });
    const page = await context.newPage();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/verify_token_', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/login', { waitUntil: 'commit' });
    // The check is held: the form must not wait for it.
    await page.locator('input[name="email"]').waitFor({ state: 'visible', timeout: 20_000 });
    expect(await page.locator('input[name="email"]').isEnabled()).toBe(true);
    release();

    // Logged in, then a cold visit to /login: the form may show, the answer sends the visitor home.
    await loginAsAdmin(page);
    const next = await context.newPage();
    await next.goto('/login');
    // Home, then (an admin has the annuities menu) on to the verify screen.
    await next.waitForURL((url) => url.pathname === ANNUITIES_LANDING, { timeout: 20_000 });
    await context.close();
  });
});
