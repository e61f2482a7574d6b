import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import type { PortalInfo } from './context.ts';
import { builtEntry, builtServer } from '../../apps/api/test/support/built-server.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WEB = path.join(ROOT, 'apps/web');
const DIST_INDEX = path.join(WEB, 'dist/index.html');
/** Everything that ends up in the web bundle. */
const WEB_SOURCES = [
  path.join(WEB, 'src'),
  path.join(WEB, 'index.html'),
  path.join(WEB, 'vite.config.ts'),
  // The build's own plugins: the boot preloader (and the manifest reader it uses), the precompression.
  path.join(WEB, 'boot-preload.ts'),
  path.join(WEB, 'first-load.ts'),
  path.join(WEB, 'precompress.ts'),
  path.join(WEB, 'public'),
  path.join(ROOT, 'packages/i18n/locales'),
  path.join(ROOT, 'packages/i18n/src'),
  path.join(ROOT, 'packages/contracts/src'),
];

function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

function ensureWebBuild(): void {
  const built = existsSync(DIST_INDEX) ? statSync(DIST_INDEX).mtimeMs : 0;
  const sources = Math.max(...WEB_SOURCES.map(newestMtime));
  if (built && built >= sources && !process.env.E2E_FORCE_BUILD) return;
  console.log('[e2e] building @portal/web …');
  // vitest sets NODE_ENV=test, which would make Vite bundle React's development build: test what ships.
  const r = spawnSync('npm', ['run', 'build', '-w', '@portal/web'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  if (r.status !== 0) throw new Error('npm run build -w @portal/web failed');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function waitForReady(child: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`portal did not start within ${timeoutMs} ms:\n${output.slice(-4000)}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Portal ready on http:\/\/localhost:\d+/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`portal exited with code ${code}:\n${output.slice(-4000)}`));
    });
  });
}

export interface PortalProcess {
  info: PortalInfo;
  stop(): Promise<void>;
}

/**
 * Starts the real API (serving the built web app) on a free port with a data directory of its own.
 * `env` adds to or overrides the test environment: the MFA suite starts one with the second factor
 * required of admins, which the shared portal does not require (decision 137).
 */
export async function startPortalProcess(env: Record<string, string> = {}): Promise<PortalProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-e2e-'));
  const baseUrl = `http://localhost:${port}`;
  const info: PortalInfo = {
    baseUrl,
    dataDir,
    adminEmail: 'admin@portal.test',
    adminPassword: 'Admin-e2e-password-2026',
  };
  // E2E_SERVER_ENTRY lets a developer point the suite at another (TypeScript) entrypoint; the default is the
  // real API, built as `npm start` builds it (decision 231; from its source with TEST_RUN_SOURCES=1).
  const entry = process.env.E2E_SERVER_ENTRY ?? 'apps/api/src/main.ts';
  const bundle = process.env.E2E_SERVER_ENTRY ? undefined : builtEntry(entry);
  const child = spawn(process.execPath, bundle ? [path.join(builtServer(), bundle)] : ['--import', 'tsx', entry], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: baseUrl,
      ADMIN_EMAIL: info.adminEmail,
      ADMIN_PASSWORD: info.adminPassword,
      NODE_ENV: 'test',
      // Small result pages, so the LEDES result's paging is reached with a few hundred refused lines.
      LEDES_RESULT_PAGE_FINDINGS: '100',
      // Admins sign in with their password alone here; e2e/test/mfa.e2e.test.ts starts a portal that requires the second factor.
      MFA_REQUIRED_FOR_ADMINS: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const keep = (c: Buffer) => {
    logs.push(c.toString());
    if (logs.length > 400) logs.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  try {
    await waitForReady(child, 120_000);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    info,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      if (process.env.E2E_KEEP_DATA) console.log(`[e2e] data kept in ${dataDir}\n${logs.join('').slice(-2000)}`);
      else rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  ensureWebBuild();
  const started = await startPortalProcess();
  project.provide('portal', started.info);
  return () => started.stop();
}
