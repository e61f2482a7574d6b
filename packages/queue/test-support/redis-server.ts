import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

export interface TestRedis {
  url: string;
  port: number;
  /** SIGTERM by default; a test may SIGKILL it to simulate a crash. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface StartRedisOptions {
  /** Extra redis-server arguments, e.g. `['--maxmemory-policy', 'allkeys-lru']`. */
  args?: string[];
  /** A fixed port, e.g. to restart a killed server where its clients expect it; a free one otherwise. */
  port?: number;
}

const CANDIDATES = ['/usr/bin/redis-server', '/usr/local/bin/redis-server', '/opt/homebrew/bin/redis-server'];
const running = new Set<ChildProcess>();

// A crashed test run must not leave redis-server processes behind.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Starts a private, throw-away redis-server on a free loopback port (no persistence), for tests.
 * Never touches the machine's own Redis.
 */
export async function startRedisServer(options: StartRedisOptions = {}): Promise<TestRedis> {
  const binary = findRedisServer();
  if (options.port !== undefined) return launch(binary, options.port, options.args ?? []);
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const port = await freePort();
    try {
      return await launch(binary, port, options.args ?? []);
    } catch (error) {
      lastError = error; // most likely the port was taken in between: try another
    }
  }
  throw lastError;
}

function findRedisServer(): string {
  const searched = [...CANDIDATES, ...(process.env['PATH'] ?? '').split(path.delimiter).map((dir) => path.join(dir, 'redis-server'))];
  for (const candidate of searched) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // keep looking
    }
  }
  throw new Error('redis-server binary not found (tests start their own private Redis). Install it: apt-get install -y redis-server');
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function launch(binary: string, port: number, extraArgs: string[]): Promise<TestRedis> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', ...extraArgs];
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let output = '';
  const stop = (signal: NodeJS.Signals = 'SIGTERM') =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        running.delete(child);
        resolve();
        return;
      }
      const force = setTimeout(() => child.kill('SIGKILL'), 3000);
      child.once('exit', () => {
        clearTimeout(force);
        running.delete(child);
        resolve();
      });
      child.kill(signal);
    });

  return new Promise((resolve, reject) => {
    const timeout = setTimeout(() => {
      stop().catch((error: unknown) => console.error('[redis-server] stop failed:', error));
      reject(new Error(`redis-server did not start on port ${port} within 10 s:\n${output}`));
    }, 10_000);
    const onOutput = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timeout);
        child.stdout?.off('data', onOutput);
        resolve({ url: `redis://127.0.0.1:${port}`, port, stop });
      }
    };
    child.stdout?.on('data', onOutput);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timeout);
      running.delete(child);
      reject(new Error(`redis-server exited with code ${code} on port ${port}:\n${output}`));
    });
  });
}
