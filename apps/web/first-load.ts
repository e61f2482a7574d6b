import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * What a cold visit to one screen downloads, read from the Vite manifest of a build
 * (`dist/.vite/manifest.json`): the entry chunk and its static imports, the screen's route chunk
 * and its static imports, and one language chunk. Sizes come from the files the build wrote:
 * raw, `.gz` and `.br` (the precompressed copies the servers send).
 */
export interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export interface FileSize {
  file: string;
  raw: number;
  gzip: number;
  brotli: number;
}

export interface Load {
  js: FileSize[];
  css: FileSize[];
  total: { raw: number; gzip: number; brotli: number };
}

/** The route modules of the router, by route path (kept in step with app/router.tsx by a test). */
export const ROUTE_MODULES: Record<string, string> = {
  '/': 'src/features/home/HomePage.tsx',
  '/login': 'src/features/auth/LoginPage.tsx',
  '/login/mfa': 'src/features/mfa/MfaSignInPage.tsx',
  '/account/security': 'src/features/mfa/SecurityPage.tsx',
  '/account/notifications': 'src/features/account/NotificationsPage.tsx',
  '/forgot_password': 'src/features/auth/ForgotPasswordPage.tsx',
  '/password_reset': 'src/features/auth/ResetPasswordPage.tsx',
  '/contact': 'src/features/contact/ContactPage.tsx',
  '/privacy-policy': 'src/features/legal/LegalPage.tsx',
  '/add/user': 'src/features/users/AddUserPage.tsx',
  '/admin/user': 'src/features/users/UserListPage.tsx',
  '/ledes/upload': 'src/features/ledes/UploadPage.tsx',
  '/ledes/history': 'src/features/ledes/HistoryPage.tsx',
  '/ledes/history/admin': 'src/features/ledes/AdminHistoryPage.tsx',
  '/result-ledes': 'src/features/ledes/ResultPage.tsx',
  '/annuities/research': 'src/features/annuities/ResearchPage.tsx',
  '/annuites/verify': 'src/features/annuities/VerifyPage.tsx',
  '/annuities/list-files': 'src/features/annuities/FileListPage.tsx',
  '/patent-annuities': 'src/features/patents/PatentAnnuitiesPage.tsx',
  '/add/patents': 'src/features/patents/AddPatentPage.tsx',
  '/annuites/patent': 'src/features/patents/MissingInfoPage.tsx',
  '/annuites/patent/instruction': 'src/features/patents/ToValidatePage.tsx',
  '/annuites/patent/submissions': 'src/features/patents/SubmissionsPage.tsx',
  '/annuites/patent/portfolio': 'src/features/portfolio/PortfolioPage.tsx',
  '/annuities/upload/receipt': 'src/features/receipts/ReceiptUploadPage.tsx',
  '/annuities/list-receipt': 'src/features/receipts/ReceiptListPage.tsx',
  '/annuites/costs': 'src/features/costs/CostTablesPage.tsx',
  '/annuites/calls': 'src/features/calls/RenewalCallsPage.tsx',
  '/ledes/guidelines': 'src/features/guidelines/GuidelinesPage.tsx',
  '/annuites/forecast': 'src/features/forecast/ForecastPage.tsx',
  '/annuities/list-receipt/unlinked': 'src/features/receipts/UnlinkedReceiptsPage.tsx',
  '/ledes/analytics': 'src/features/analytics/AnalyticsPage.tsx',
  '/annuites/register': 'src/features/register/RegisterPage.tsx',
};
export const LOCALE_MODULES = { en: 'src/lib/locales/en.ts', fr: 'src/lib/locales/fr.ts' } as const;

export function readManifest(distDir: string): Manifest {
  return JSON.parse(readFileSync(path.join(distDir, '.vite/manifest.json'), 'utf8')) as Manifest;
}

export function entryKey(manifest: Manifest): string {
  const entry = Object.entries(manifest).find(([, c]) => c.isEntry);
  if (!entry) throw new Error('no entry chunk in the manifest');
  return entry[0];
}

/** A chunk and every chunk it imports statically (what the browser fetches before running it). */
export function staticClosure(manifest: Manifest, keys: string[]): string[] {
  const seen = new Set<string>();
  const stack = [...keys];
  while (stack.length) {
    const key = stack.pop()!;
    if (seen.has(key)) continue;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the manifest`);
    seen.add(key);
    stack.push(...(chunk.imports ?? []));
  }
  return [...seen];
}

/** True when the build wrote `.br` / `.gz` copies (a file without one is then sent as it is). */
export function hasPrecompressedCopies(distDir: string): boolean {
  const assets = path.join(distDir, 'assets');
  return existsSync(assets) && readdirSync(assets).some((f) => f.endsWith('.br'));
}

/**
 * Sizes of one built file: raw, and as the servers send it (the build's `.gz` / `.br` copies, or
 * the raw file when the build skipped it as too small). For a build without copies (an older
 * one), the compressed sizes are computed with the build's settings.
 */
export function sizeOf(distDir: string, file: string, computeMissing = !hasPrecompressedCopies(distDir)): FileSize {
  const full = path.join(distDir, file);
  const raw = statSync(full).size;
  const written = (suffix: string) => (existsSync(full + suffix) ? statSync(full + suffix).size : undefined);
  if (!computeMissing) return { file, raw, gzip: written('.gz') ?? raw, brotli: written('.br') ?? raw };
  const content = readFileSync(full);
  const gzip = Math.min(raw, gzipSync(content, { level: 9 }).length);
  const brotli = Math.min(raw, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } }).length);
  return { file, raw, gzip, brotli };
}

function sum(sizes: FileSize[]) {
  return sizes.reduce((t, s) => ({ raw: t.raw + s.raw, gzip: t.gzip + s.gzip, brotli: t.brotli + s.brotli }), { raw: 0, gzip: 0, brotli: 0 });
}

/** The classic scripts index.html loads beside the shell (the boot preloader): every cold visit downloads them. */
export function bootScripts(distDir: string): string[] {
  const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  return [...html.matchAll(/<script(?![^>]*type="module")[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]!.replace(/^\//, ''));
}

/** The first load of a screen in one language: entry + route chunk + language chunk, with their CSS, and the boot script. */
export function firstLoad(distDir: string, routeModule: string, lang: keyof typeof LOCALE_MODULES = 'en'): Load & { chunks: string[] } {
  const manifest = readManifest(distDir);
  const chunks = staticClosure(manifest, [entryKey(manifest), routeModule, LOCALE_MODULES[lang]]);
  const compute = !hasPrecompressedCopies(distDir);
  const js = [...chunks.map((k) => manifest[k]!.file), ...bootScripts(distDir)].map((file) => sizeOf(distDir, file, compute));
  // One stylesheet for the whole app (`cssCodeSplit: false`) is the manifest's `style.css`; per-chunk CSS otherwise.
  const cssFiles = [...new Set([...chunks.flatMap((k) => manifest[k]!.css ?? []), ...(manifest['style.css'] ? [manifest['style.css'].file] : [])])];
  const css = cssFiles.map((f) => sizeOf(distDir, f, compute));
  return { chunks, js, css, total: sum(js) };
}

/** A route's own chunks (beyond the entry's), as a navigation from another screen fetches them. */
export function routeChunks(distDir: string, routeModule: string): Load {
  const manifest = readManifest(distDir);
  const entry = new Set(staticClosure(manifest, [entryKey(manifest)]));
  const own = staticClosure(manifest, [routeModule]).filter((k) => !entry.has(k));
  const compute = !hasPrecompressedCopies(distDir);
  const js = own.map((k) => sizeOf(distDir, manifest[k]!.file, compute));
  const css = [...new Set(own.flatMap((k) => manifest[k]!.css ?? []))].map((f) => sizeOf(distDir, f, compute));
  return { js, css, total: sum(js) };
}

/**
 * First load read from index.html when the build has no manifest (builds before the route split):
 * the entry script, its modulepreloads and stylesheets.
 */
export function firstLoadFromHtml(distDir: string): Load {
  const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const refs = (re: RegExp) => [...html.matchAll(re)].map((m) => m[1]!.replace(/^\//, ''));
  const jsFiles = [...new Set([...refs(/<script[^>]+src="([^"]+)"/g), ...refs(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)])];
  const cssFiles = refs(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g);
  const compute = !hasPrecompressedCopies(distDir);
  const js = jsFiles.map((f) => sizeOf(distDir, f, compute));
  const css = cssFiles.map((f) => sizeOf(distDir, f, compute));
  return { js, css, total: sum(js) };
}
