import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { freePort } from './processes.ts';

/**
 * A private, throw-away PostgreSQL server for fault tests: its own data directory, port and unix
 * socket, fsync off, trust authentication. Tests may stop and start it at will, which they must never
 * do to the machine's shared server.
 */
export interface PostgresServer {
  url: string;
  port: number;
  /** Starts the server again on the same port and data directory (after `stop`). */
  start(): Promise<void>;
  /** Fast shutdown: clients are disconnected, as in an outage. */
  stop(): Promise<void>;
  /** Stops the server and removes its data directory. */
  destroy(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** The newest Debian-style PostgreSQL bin directory, or null when none is installed. */
export function findPostgresBinaries(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')) && existsSync(path.join(root, v, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

/** initdb and postgres refuse to run as root: as root, run them as the `postgres` system user. */
function serverIdentity(): { uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  const gid = id('-g');
  if (!Number.isInteger(uid) || !Number.isInteger(gid) || uid === 0) throw new Error('running as root and there is no `postgres` user to run PostgreSQL as');
  return { uid, gid };
}

export async function startPostgresServer(binDir: string): Promise<PostgresServer> {
  const identity = serverIdentity();
  const dir = mkdtempSync(path.join('/tmp', 'portal-faults-pg-'));
  if (identity) chownSync(dir, identity.uid, identity.gid);
  const dataDir = path.join(dir, 'data');
  const init = spawnSync(path.join(binDir, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'], {
    encoding: 'utf8',
    ...identity,
  });
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed (${init.status}):\n${init.stdout}\n${init.stderr}`);
  }
  const port = await freePort();
  let child: ChildProcess | undefined;

  async function start(): Promise<void> {
    const server = spawn(
      path.join(binDir, 'postgres'),
      ['-D', dataDir, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'],
      { stdio: ['ignore', 'pipe', 'pipe'], ...identity },
    );
    running.add(server);
    child = server;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timeout = setTimeout(() => reject(new Error(`PostgreSQL did not start on port ${port} within 20 s:\n${output}`)), 20_000);
      const onOutput = (chunk: Buffer) => {
        output += String(chunk);
        if (output.includes('database system is ready to accept connections')) {
          clearTimeout(timeout);
          resolve();
        }
      };
      server.stdout.on('data', onOutput);
      server.stderr.on('data', onOutput);
      server.once('exit', (code) => {
        clearTimeout(timeout);
        running.delete(server);
        reject(new Error(`PostgreSQL exited with code ${code}:\n${output}`));
      });
    });
  }

  async function stop(): Promise<void> {
    const server = child;
    child = undefined;
    if (!server || server.exitCode !== null || server.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => server.kill('SIGKILL'), 10_000);
      server.once('exit', () => {
        clearTimeout(force);
        running.delete(server);
        resolve();
      });
      server.kill('SIGINT'); // fast shutdown: active sessions are terminated
    });
  }

  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    async destroy() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
