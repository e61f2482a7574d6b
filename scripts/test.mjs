#!/usr/bin/env node
// The whole test suite: unit, integration (PGlite and PostgreSQL), BullMQ, S3, SMTP and end-to-end.
// Prints one closing line "N passed, N failed, N skipped" and exits non-zero on any failure.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';

function which(binary) {
  return spawnSync('sh', ['-c', `command -v ${binary}`]).status === 0;
}

function reachable(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 1000 });
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => { socket.destroy(); resolve(false); });
  });
}

const missing = ['redis-server', 'chromium'].filter((b) => !which(b));
if (missing.length > 0) {
  console.error(`Missing: ${missing.join(', ')}. On Debian/Ubuntu: sudo apt-get install -y redis-server chromium`);
  process.exit(1);
}

const env = { ...process.env };
if (!env.TEST_DATABASE_URL && (await reachable('127.0.0.1', 5432))) {
  env.TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
}
console.log(env.TEST_DATABASE_URL
  ? `PostgreSQL suites: on (${env.TEST_DATABASE_URL.replace(/\/\/[^@]*@/, '//***@')}), one fresh database per run`
  : 'PostgreSQL suites: skipped (no TEST_DATABASE_URL and nothing listening on 127.0.0.1:5432)');

const build = spawnSync('npm', ['run', 'build:web'], { stdio: 'inherit', env });
if (build.status !== 0) process.exit(build.status ?? 1);

mkdirSync('test-results', { recursive: true });
for (const file of readdirSync('test-results')) if (/^vitest.*\.json$/.test(file)) rmSync(`test-results/${file}`);

/** One vitest run; resolves with its exit status and the JSON report it wrote. */
function vitest(name, args, part) {
  const report = `test-results/${name}.json`;
  const child = spawn('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...args], {
    stdio: 'inherit',
    env: part ? { ...env, VITEST_PART: part } : env,
  });
  return new Promise((resolve) => child.on('close', (status) => resolve({ status: status ?? 1, report })));
}

// The whole suite runs as two vitest processes at once (vitest.config.ts, VITEST_PART): the browser and fault
// chains, their files one at a time, beside every other project, one file per core. In one process Vitest runs
// its single-worker projects only after all the others, so the chains waited for the rest to finish.
// With arguments (a file, a project, a filter) it is one run, as `npx vitest run` would be.
const args = process.argv.slice(2);
const runs = await Promise.all(args.length > 0 ? [vitest('vitest', args)] : [vitest('vitest-chains', [], 'chains'), vitest('vitest', [], 'rest')]);

let passed = 0;
let failed = 0;
let skipped = 0;
for (const { report } of runs) {
  if (!existsSync(report)) continue;
  const r = JSON.parse(readFileSync(report, 'utf8'));
  passed += r.numPassedTests ?? 0;
  failed += r.numFailedTests ?? 0;
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
}
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(runs.every((r) => r.status === 0) ? 0 : 1);
