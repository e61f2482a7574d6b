#!/usr/bin/env node
// The whole test suite: unit, integration (PGlite and PostgreSQL), BullMQ, S3, SMTP and end-to-end.
// Prints one closing line "N passed, N failed, N skipped" and exits non-zero on any failure.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
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

const missing = ['redis-server', 'chromium', 'chromium-headless-shell'].filter((b) => !which(b));
if (missing.length > 0) {
  console.error(`Missing: ${missing.join(', ')}. On Debian/Ubuntu: sudo apt-get install -y redis-server chromium chromium-headless-shell`);
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
const vitest = spawnSync(
  'npx',
  ['vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=test-results/vitest.json', ...process.argv.slice(2)],
  { stdio: 'inherit', env },
);

if (existsSync('test-results/vitest.json')) {
  const report = JSON.parse(readFileSync('test-results/vitest.json', 'utf8'));
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  console.log(`\n${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
}
process.exit(vitest.status ?? 1);
