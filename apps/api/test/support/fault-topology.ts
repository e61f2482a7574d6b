import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startSmtpSink, type ReceivedMail } from '@portal/mail/test-support';
import { startRedisServer, type TestRedis } from '@portal/queue/test-support';
import { generateLedes } from '../../../../packages/ledes/test/generate.ts';
import { multipart } from './multipart.ts';
import { TestClient } from './portal.ts';
import { findPostgresBinaries, startPostgresServer, type PostgresServer } from './postgres-server.ts';
import { freePort, PRODUCTION_ADMIN, PRODUCTION_API_KEY, PRODUCTION_BUCKET, productionEnv, startProcess, type RunningProcess } from './processes.ts';
import { RUN_KIND_FAULTS } from './run-kinds.ts';
import { startLocalOps } from './local-ops.ts';
import { startS3Server } from './s3-server.ts';

/**
 * The production topology with every dependency under the test's control, for fault tests: a private
 * PostgreSQL server, a private redis-server, an S3 server and an SMTP sink, each of which can be
 * stopped and started again where its clients expect it; the API, the LEDES workers and the mail
 * worker as separate processes, watched for deaths and unhandled errors.
 */

/** Why the fault suite cannot run here, or null when it can. */
export function faultSuiteUnavailable(): string | null {
  if (!findPostgresBinaries()) return 'no PostgreSQL server binaries in /usr/lib/postgresql/*/bin (apt-get install -y postgresql): the fault suite needs a private server it can stop';
  return null;
}

const AGENT_EMAIL = 'agent@portal.example.com';
const AGENT_PASSWORD = 'agent-password-123';
/** Each account may ask for three reset links per quarter hour: the stream's reset mails rotate over these accounts. */
const MAIL_ACCOUNTS = 4;
/**
 * How long a process of the topology may take to start: up to ten processes load their TypeScript at
 * once on two cores (longer than one would alone on a loaded machine).
 */
const STARTUP_MS = 150_000;
/** How long a run or a mail may take to settle once every dependency is back. */
export const RECOVERY_BOUND_MS = 60_000;

export type Observed = number | 'network error' | 'no answer';

export interface Exchange {
  kind: 'upload' | 'login' | 'reset';
  at: number;
  status: Observed;
  retryAfter: boolean;
  detail: string;
}

export interface Outage {
  dependency: string;
  from: number;
  to: number;
}

export interface WatchedProcess {
  name: string;
  process: RunningProcess;
  /** Set when the test itself stops or kills the process. */
  expectedExit: boolean;
  /** When the test signalled it to stop (SIGTERM, SIGKILL), and when it exited. */
  signalledAt?: number;
  exitedAt?: number;
  /** Where its /healthz and /readyz answer (the API's port, a worker's WORKER_HTTP_PORT). */
  base?: string;
}

export interface ReadinessAnswer {
  name: string;
  status: Observed;
  checks: Record<string, string>;
}

export interface TopologyOptions {
  ledesWorkers?: number;
  /**
   * Workers started for every run kind of `run-kinds.ts` other than LEDES (whose count is
   * `ledesWorkers`, this count when not given); none by default.
   */
  workersPerKind?: number;
  /** Redis keeps its data across a kill (AOF, fsync always), as a production Redis for BullMQ does. */
  persistentRedis?: boolean;
  env?: Record<string, string>;
  /** Variables of the topology's defaults left unset (their configuration default applies). */
  unset?: string[];
}

export interface StreamOptions {
  files: number;
  durationMs: number;
  /** Forgot-password requests spread over the stream, each for its own account. */
  mails: number;
  /** Logins spread over the stream. */
  logins: number;
}

export async function startFaultTopology(options: TopologyOptions = {}) {
  const cleanups: Array<() => Promise<void> | void> = [];
  const cleanup = async () => {
    for (const step of cleanups.reverse()) await step();
  };
  try {
    const binDir = findPostgresBinaries();
    if (!binDir) throw new Error(faultSuiteUnavailable()!);
    const postgres: PostgresServer = await startPostgresServer(binDir);
    cleanups.push(() => postgres.destroy());

    const redisDir = mkdtempSync(path.join(tmpdir(), 'portal-faults-redis-'));
    cleanups.push(() => rmSync(redisDir, { recursive: true, force: true }));
    const redisArgs = options.persistentRedis ? ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', redisDir] : [];
    let redis: TestRedis | undefined = await startRedisServer({ args: redisArgs });
    const redisPort = redis.port;
    cleanups.push(() => redis?.stop('SIGKILL'));

    const s3 = await startS3Server();
    cleanups.push(() => s3.destroy());

    // The patent office the register sync reads (issue 29): recorded answers over HTTP, outside the system.
    const ops = await startLocalOps();
    cleanups.push(() => ops.stop());

    const received: ReceivedMail[] = [];
    let smtp: Awaited<ReturnType<typeof startSmtpSink>> | undefined = await startSmtpSink(undefined, { received });
    const smtpPort = smtp.port;
    cleanups.push(() => smtp?.stop());

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const apiKey = PRODUCTION_API_KEY;
    const env: Record<string, string> = {
      ...productionEnv({ port, databaseUrl: postgres.url, redisUrl: redis.url, s3Endpoint: s3.endpoint, smtpUrl: smtp.url }),
      MAIL_FROM: 'IP Portal <no-reply@portal.example.com>',
      UPLOAD_MAX_BYTES: String(256 * 1024 * 1024),
      // Short locks and stall checks, so a lost lock or a killed worker shows within seconds.
      WORKER_LOCK_DURATION_MS: '3000',
      WORKER_STALLED_INTERVAL_MS: '1000',
      OPS_CONSUMER_KEY: 'faults-consumer-key',
      OPS_CONSUMER_SECRET: 'faults-consumer-secret',
      OPS_BASE_URL: ops.url,
      ...options.env,
    };
    for (const name of options.unset ?? []) delete env[name];

    const watched: WatchedProcess[] = [];
    const watch = (name: string, entry: string, http?: { port: number }): WatchedProcess => {
      const processEnv = http ? { ...env, WORKER_HTTP_PORT: String(http.port), WORKER_HTTP_HOST: '127.0.0.1' } : env;
      const entryProcess: WatchedProcess = { name, process: startProcess(entry, processEnv), expectedExit: false, ...(http ? { base: `http://127.0.0.1:${http.port}` } : {}) };
      watched.push(entryProcess);
      entryProcess.process.child.once('exit', () => {
        entryProcess.exitedAt = Date.now();
      });
      cleanups.push(async () => {
        entryProcess.expectedExit = true;
        await entryProcess.process.stop('SIGKILL');
      });
      return entryProcess;
    };
    const startLedesWorker = async (name: string) => {
      const worker = watch(name, 'workers/src/entrypoints/ledes.ts', { port: await freePort() });
      await worker.process.waitFor(/ledes worker started/, STARTUP_MS);
      return worker;
    };
    /** A worker of any registered queue, watched like the others (`workers/src/entrypoints/<queue>.ts`). */
    const startWorker = async (queue: string, name: string) => {
      const worker = watch(name, `workers/src/entrypoints/${queue}.ts`, { port: await freePort() });
      await worker.process.waitFor(new RegExp(`${queue} worker started`), STARTUP_MS);
      return worker;
    };
    // The API first: it migrates the schema and creates the bucket. Workers starting together with it
    // race it on the bucket's creation, and today the loser dies on BucketAlreadyExists.
    const api = watch('api', 'apps/api/src/main.ts');
    api.base = url;
    await api.process.waitFor(/Portal ready on/, STARTUP_MS);
    const mailWorker = watch('mail worker', 'workers/src/entrypoints/mail.ts', { port: await freePort() });
    const perKind = options.workersPerKind ?? 0;
    const otherKinds = perKind > 0 ? RUN_KIND_FAULTS.map((k) => k.queue).filter((q) => q !== 'ledes') : [];
    const [firstLedesWorkers, ...others] = await Promise.all([
      Promise.all(Array.from({ length: options.ledesWorkers ?? (perKind || 2) }, (_, i) => startLedesWorker(`ledes worker ${i + 1}`))),
      ...otherKinds.map((queue) => Promise.all(Array.from({ length: perKind }, (_, i) => startWorker(queue, `${queue} worker ${i + 1}`)))),
      mailWorker.process.waitFor(/mail worker started/, STARTUP_MS).then(() => [] as WatchedProcess[]),
    ]);
    let ledesWorkers = firstLedesWorkers;
    /** The workers of each run kind's queue (LEDES's are `ledesWorkers`). */
    const kindWorkers = new Map<string, WatchedProcess[]>(otherKinds.map((queue, i) => [queue, others[i]!]));
    const workersOf = (queue: string): WatchedProcess[] => (queue === 'ledes' ? ledesWorkers : (kindWorkers.get(queue) ?? []));

    const db = new pg.Pool({ connectionString: postgres.url, max: 2 });
    db.on('error', () => {}); // idle clients die with the server during an outage; the next query reconnects
    cleanups.push(() => db.end());

    // Accounts: a LEDES agent who uploads, and one account per reset mail.
    const admin = new TestClient(url, { origin: url, apiKey });
    await expectOk(admin.post('/api/auth/login', PRODUCTION_ADMIN), 'admin login');
    const roles = (await admin.get('/api/role')).body.roles as Array<{ _id: string; slug: string }>;
    const roleId = (slug: string) => roles.find((r) => r.slug === slug)!._id;
    await expectOk(
      admin.post('/api/admin/user', { company_agent: 'Agent', email: AGENT_EMAIL, password: AGENT_PASSWORD, roles: [roleId('user_agent_ledes')], id_client: ['C1'] }),
      'agent creation',
    );
    const mailAccounts: string[] = [];
    for (let i = 1; i <= MAIL_ACCOUNTS; i++) {
      const email = `reader${i}@portal.example.com`;
      await expectOk(admin.post('/api/admin/user', { company_agent: `Reader ${i}`, email, password: `reader-password-${i}`, roles: [roleId('user_agent_ledes')], id_client: ['C1'] }), 'reader creation');
      mailAccounts.push(email);
    }
    const agent = new TestClient(url, { origin: url, apiKey });
    await expectOk(agent.post('/api/auth/login', { email: AGENT_EMAIL, password: AGENT_PASSWORD }), 'agent login');

    const exchanges: Exchange[] = [];
    const outages: Outage[] = [];
    let fileCounter = 0;
    let mailCounter = 0;

    /** One exchange with the API, recorded with what it answered; never throws. */
    async function exchange(kind: Exchange['kind'], send: (signal: AbortSignal) => Promise<Response>): Promise<Response | undefined> {
      const at = Date.now();
      try {
        const res = await send(AbortSignal.timeout(30_000));
        const body = await res.text();
        exchanges.push({ kind, at, status: res.status, retryAfter: res.headers.has('retry-after'), detail: body.slice(0, 300) });
        return new Response(body, { status: res.status, headers: res.headers });
      } catch (error) {
        const timedOut = error instanceof Error && error.name === 'TimeoutError';
        exchanges.push({ kind, at, status: timedOut ? 'no answer' : 'network error', retryAfter: false, detail: String(error) });
        return undefined;
      }
    }

    async function upload(content: Buffer, filename: string): Promise<string | undefined> {
      const { body, contentType } = multipart({ user_id: '' }, [{ filename, content }]);
      const res = await exchange('upload', (signal) =>
        fetch(`${url}/api/ledes/file/patent/PAR`, {
          method: 'POST',
          headers: { 'content-type': contentType, cookie: agent.cookieHeader(), origin: url, 'x-api-key': apiKey },
          body,
          signal,
        }),
      );
      if (res?.status !== 200) return undefined;
      const json = (await res.json()) as { runs: Array<{ _id: string }> };
      return json.runs[0]?._id;
    }

    const topology = {
      url,
      apiKey,
      env,
      postgres,
      s3,
      ops,
      received,
      exchanges,
      outages,
      db,
      get ledesWorkers() {
        return ledesWorkers;
      },
      mailWorker,
      api,
      /** The production admin, signed in. */
      admin,
      startWorker,
      workersOf,
      /** Every worker of `queue` the topology started, the stopped and replaced ones included. */
      everyWorkerOf(queue: string): WatchedProcess[] {
        return watched.filter((w) => w.name.startsWith(`${queue} worker`));
      },
      /** A user of `role` (slug) on client C1 (an annuity agent also on the first cabinet), signed in. */
      async user(role: string, email: string): Promise<TestClient> {
        const cabinets = ((await admin.get('/api/cabinet')).body.cabinet as Array<{ _id: string }>).map((c) => c._id);
        await expectOk(
          admin.post('/api/admin/user', { company_agent: email, email, password: 'faults-password-123', roles: [roleId(role)], id_client: ['C1'], ...(role === 'user_agent_annuites' ? { cabinets: cabinets.slice(0, 1) } : {}) }),
          `creation of ${email}`,
        );
        const client = new TestClient(url, { origin: url, apiKey });
        await expectOk(client.post('/api/auth/login', { email, password: 'faults-password-123' }), `login of ${email}`);
        return client;
      },

      /** A small valid LEDES file whose invoice numbers no other file of the suite uses (accepted, delivered). */
      smallFile(lines = 200): Promise<Buffer> {
        return ledesFile(lines, `F${++fileCounter}`);
      },
      longFile(): Promise<Buffer> {
        return ledesFile(200_000, `L${++fileCounter}`);
      },
      upload,

      /** Uploads, logins and reset mails spread over `durationMs`, fired on schedule whatever the previous answers. */
      async stream(stream: StreamOptions): Promise<void> {
        const files = await Promise.all(Array.from({ length: stream.files }, () => topology.smallFile()));
        const started = Date.now();
        const at = (i: number, n: number) => started + (stream.durationMs * i) / n;
        const tasks: Array<Promise<unknown>> = [];
        const schedule = (when: number, task: () => Promise<unknown>) =>
          tasks.push(new Promise((resolve) => setTimeout(resolve, Math.max(0, when - Date.now()))).then(task));
        files.forEach((file, i) => schedule(at(i, stream.files), () => upload(file, `stream-${i + 1}.txt`)));
        for (let i = 0; i < stream.logins; i++) {
          schedule(at(i + 0.5, stream.logins), () =>
            exchange('login', (signal) =>
              fetch(`${url}/api/auth/login`, {
                method: 'POST',
                headers: { 'content-type': 'application/json', origin: url, 'x-api-key': apiKey },
                body: JSON.stringify({ email: AGENT_EMAIL, password: AGENT_PASSWORD }),
                signal,
              }),
            ),
          );
        }
        for (let i = 0; i < stream.mails; i++) {
          const email = mailAccounts[mailCounter++ % mailAccounts.length]!;
          schedule(at(i + 0.25, stream.mails), () =>
            exchange('reset', (signal) => fetch(`${url}/api/auth/request_reset_password/${encodeURIComponent(email)}`, { headers: { origin: url, 'x-api-key': apiKey }, signal })),
          );
        }
        await Promise.all(tasks);
      },

      /** Takes a dependency down, keeps it down `durationMs`, brings it back, and records the outage window. */
      async outage(dependency: string, down: () => Promise<void> | void, up: () => Promise<void> | void, durationMs: number): Promise<void> {
        const from = Date.now();
        await down();
        await sleep(durationMs);
        await up();
        outages.push({ dependency, from, to: Date.now() });
      },

      async stopPostgres() {
        await postgres.stop();
      },
      async startPostgres() {
        await postgres.start();
      },
      /** SIGKILL: Redis dies without a word; what it keeps depends on `persistentRedis`. */
      async killRedis() {
        await redis?.stop('SIGKILL');
        redis = undefined;
      },
      async startRedis() {
        redis = await startRedisServer({ port: redisPort, args: redisArgs });
      },
      async stopSmtp() {
        await smtp?.stop();
        smtp = undefined;
      },
      async startSmtp() {
        smtp = await startSmtpSink(undefined, { port: smtpPort, received });
      },

      /** What /readyz answers now on the API and on every worker still running (each bounded to 10 s). */
      async readiness(): Promise<ReadinessAnswer[]> {
        const running = watched.filter((w) => w.base && w.process.child.exitCode === null && w.process.child.signalCode === null);
        return Promise.all(
          running.map(async (w): Promise<ReadinessAnswer> => {
            try {
              const res = await fetch(`${w.base}/readyz`, { signal: AbortSignal.timeout(10_000) });
              const body = (await res.json()) as { checks?: Record<string, string> };
              return { name: w.name, status: res.status, checks: body.checks ?? {} };
            } catch (error) {
              return { name: w.name, status: error instanceof Error && error.name === 'TimeoutError' ? 'no answer' : 'network error', checks: {} };
            }
          }),
        );
      },

      /** Stops or kills a worker on purpose: its exit is not counted as a death. */
      async signal(worker: WatchedProcess, signal: NodeJS.Signals) {
        worker.expectedExit = true;
        worker.signalledAt ??= Date.now();
        await worker.process.stop(signal);
      },
      async restartLedesWorker(worker: WatchedProcess) {
        const fresh = await startLedesWorker(`${worker.name} (restarted)`);
        ledesWorkers = ledesWorkers.map((w) => (w === worker ? fresh : w));
        return fresh;
      },
      /** Starts a fresh worker of `queue` in place of `worker` (stopped or killed by the test). */
      async restartWorker(queue: string, worker: WatchedProcess) {
        if (queue === 'ledes') return topology.restartLedesWorker(worker);
        const fresh = await startWorker(queue, `${worker.name} (restarted)`);
        kindWorkers.set(queue, workersOf(queue).map((w) => (w === worker ? fresh : w)));
        return fresh;
      },
      /** The worker of `queue` that started the job of row `id` last (`<queue> job started`, job id `<queue>-<id>`), once one has. */
      async holderOfJob(queue: string, id: string, timeoutMs = 60_000): Promise<WatchedProcess> {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const holder = workersOf(queue).find((w) => startedAt(w, `${queue}-${id}`) !== undefined);
          if (holder) return holder;
          if (Date.now() > deadline) throw new Error(`no ${queue} worker started ${queue}-${id}`);
          await sleep(50);
        }
      },

      /**
       * The LEDES worker that started the run's job last (each worker logs `jobId` `ledes-<runId>` when
       * it starts a job), once one has.
       */
      async holderOf(runId: string, timeoutMs = 60_000): Promise<WatchedProcess> {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const holder = ledesWorkers.find((w) => w.process.output().includes(`"jobId":"ledes-${runId}"`));
          if (holder) return holder;
          if (Date.now() > deadline) throw new Error(`no LEDES worker started run ${runId}`);
          await sleep(50);
        }
      },

      /** Waits until some worker has started the run. */
      async waitForStart(runId: string, timeoutMs = 60_000, table = 'ledes_runs'): Promise<void> {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const { rows } = await db.query(`select started_at from ${table} where id = $1`, [runId]);
          if (rows[0]?.started_at) return;
          if (Date.now() > deadline) throw new Error(`run ${runId} never started:\n${ledesWorkers.map((w) => w.process.output().slice(-2000)).join('\n')}`);
          await sleep(50);
        }
      },
      /**
       * Polls the database until no run is in progress and no mail is unsent, or RECOVERY_BOUND_MS after
       * the last outage ended; then checks every invariant of the fault suite and returns the violations,
       * each a sentence naming its cause (empty when the topology held).
       */
      async violations(): Promise<string[]> {
        const recovered = Math.max(Date.now(), ...outages.map((o) => o.to));
        const deadline = recovered + RECOVERY_BOUND_MS;
        let unsettled = await unsettledWork();
        while ((unsettled.runs.length > 0 || unsettled.mails.length > 0) && Date.now() < deadline) {
          await sleep(500);
          unsettled = await unsettledWork();
        }
        // Let a late duplicate (a second execution, a second send) show before counting.
        await sleep(3000);
        const problems: string[] = [];
        const seconds = RECOVERY_BOUND_MS / 1000;
        for (const run of unsettled.runs) {
          problems.push(`run ${run.id} (${run.original_name}) still in_progress ${seconds} s after recovery (attempts ${run.attempts}, started ${run.started_at ? 'yes' : 'never'})`);
        }
        for (const mail of unsettled.mails) {
          problems.push(`mail ${mail.id} to ${mail.recipient} still unsent ${seconds} s after recovery (last error: ${mail.last_error ?? 'none'})`);
        }
        problems.push(...processDeaths(), ...answersDuringOutages(), ...(await mailsNotOnce()), ...(await deliveriesNotOnce()), ...(await strayObjects()));
        return problems;
      },
      cleanup,
    };

    async function unsettledWork() {
      try {
        // A Done run whose delivery to step 2 is recorded but not made yet is still work under way.
        const runs = (await db.query("select id, original_name, attempts, started_at from ledes_runs where state = 'in_progress' or (state = 'Done' and delivered_key is not null and delivered_at is null) order by created_at")).rows as Array<{ id: string; original_name: string; attempts: number; started_at: Date | null }>;
        // Every other run kind: a run in progress is unsettled.
        for (const kind of RUN_KIND_FAULTS) {
          if (kind.table === 'ledes_runs') continue;
          const { rows } = await db.query(`select id, attempts, started_at from ${kind.table} where state = 'in_progress' order by created_at`);
          for (const row of rows as Array<{ id: string; attempts: number; started_at: Date | null }>) runs.push({ ...row, original_name: kind.queue });
        }
        const mails = (await db.query('select id, recipient, last_error from mails where sent_at is null order by created_at')).rows as Array<{ id: string; recipient: string; last_error: string | null }>;
        return { runs, mails };
      } catch (error) {
        // The database is still coming back: count everything as unsettled.
        return { runs: [{ id: '?', original_name: `database unreachable: ${String(error)}`, attempts: 0, started_at: null }], mails: [] };
      }
    }

    function processDeaths(): string[] {
      const problems: string[] = [];
      for (const entry of watched) {
        const { child } = entry.process;
        const output = entry.process.output();
        if (!entry.expectedExit && (child.exitCode !== null || child.signalCode !== null)) {
          problems.push(`${entry.name} died (exit ${child.exitCode ?? child.signalCode}):\n${tail(output)}`);
        }
        const unhandled = output.split('\n').filter((line) => /unhandled|uncaught/i.test(line));
        if (unhandled.length > 0) problems.push(`${entry.name} reported ${unhandled.length} unhandled error(s), first: ${unhandled[0]!.slice(0, 600)}`);
      }
      return problems;
    }

    /** While a dependency is down the API answers 503 with Retry-After, never another 5xx, and always answers. */
    function answersDuringOutages(): string[] {
      const problems: string[] = [];
      const during = (e: Exchange) => outages.some((o) => e.at >= o.from && e.at <= o.to);
      const histogram = (list: Exchange[]) => {
        const counts = new Map<string, number>();
        for (const e of list) counts.set(`${e.kind} ${e.status}`, (counts.get(`${e.kind} ${e.status}`) ?? 0) + 1);
        return [...counts].map(([k, n]) => `${k}: ${n}`).join(', ');
      };
      const bad = exchanges.filter((e) => typeof e.status !== 'number' || (e.status >= 500 && e.status !== 503));
      if (bad.length > 0) {
        const first = bad[0]!;
        problems.push(
          `the API answered ${bad.length} request(s) with a 5xx other than 503, or not at all (first ${during(first) ? 'during' : 'outside'} an outage); ` +
            `seen during the outage: ${histogram(exchanges.filter(during))}; outside: ${histogram(exchanges.filter((e) => !during(e)))}; first: ${first.kind} ${first.status} ${first.detail}`,
        );
      }
      const noRetryAfter = exchanges.filter((e) => e.status === 503 && !e.retryAfter);
      if (noRetryAfter.length > 0) problems.push(`${noRetryAfter.length} answer(s) 503 without Retry-After (first: ${noRetryAfter[0]!.kind} ${noRetryAfter[0]!.detail})`);
      return problems;
    }

    /** Every mail row is received by the SMTP server exactly once, identified by its single-use link. */
    async function mailsNotOnce(): Promise<string[]> {
      const rows = (await db.query("select id, recipient, params->>'link' as link from mails")).rows as Array<{ id: string; recipient: string; link: string | null }>;
      const decoded = received.map((m) => m.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=').replace(/&amp;/g, '&'));
      const problems: string[] = [];
      for (const row of rows) {
        if (!row.link) continue;
        const token = new URL(row.link).searchParams.get('token')!;
        const times = decoded.filter((raw) => raw.includes(token)).length;
        if (times !== 1) problems.push(`mail ${row.id} to ${row.recipient} was received ${times} times by the SMTP server (expected exactly once)`);
      }
      return problems;
    }

    /** Each delivery to step 2 happens once, for a Done run that records it. */
    async function deliveriesNotOnce(): Promise<string[]> {
      const delivered = new Set(((await db.query("select delivered_key from ledes_runs where state = 'Done' and delivered_key is not null")).rows as Array<{ delivered_key: string }>).map((r) => r.delivered_key));
      const problems: string[] = [];
      for (const [key, times] of s3.created) {
        if (!key.startsWith('outbound/step2/')) continue;
        if (times !== 1) problems.push(`${key} was delivered to step 2 ${times} times (expected once)`);
        if (!delivered.has(key)) problems.push(`${key} was delivered to step 2 but no Done run records that delivery`);
      }
      for (const key of delivered) if (!s3.created.has(key)) problems.push(`run delivery ${key} is recorded but the object was never written`);
      return problems;
    }

    /** Every object in the bucket belongs to a row (any column of `@portal/db` STORAGE_KEY_COLUMNS); nothing half-written is left. */
    async function strayObjects(): Promise<string[]> {
      // The bucket first, then the rows: an object listed was stored before the rows are read, so a row naming it
      // (before its put, as the treated workbook's pending key does) is seen even if the object is still being written.
      const keys = await s3.keys(PRODUCTION_BUCKET);
      const referenced = new Set<string>();
      const rows = (
        await db.query(
          `select original_key as k from ledes_runs union all select treated_key from ledes_runs union all select treated_pending_key from ledes_runs union all select delivered_key from ledes_runs
           union all select import_key from annuity_files union all select export_key from annuity_files union all select storage_key from mail_attachments
           union all select storage_key from patent_imports union all select xlsx_key from patent_export_batches union all select csv_key from patent_export_batches
           union all select storage_key from receipt_uploads union all select storage_key from receipts`,
        )
      ).rows as Array<{ k: string | null }>;
      for (const row of rows) if (row.k) referenced.add(row.k);
      const problems: string[] = [];
      const stray = keys.filter((k) => !referenced.has(k));
      if (stray.length > 0) problems.push(`${stray.length} object(s) in storage referenced by no run: ${stray.slice(0, 5).join(', ')}`);
      const partial = keys.filter((k) => /\.part$|\.tmp$|\/tmp\//.test(k));
      if (partial.length > 0) problems.push(`partial objects left in storage: ${partial.join(', ')}`);
      const uploads = s3.pendingUploads(PRODUCTION_BUCKET);
      if (uploads.length > 0) problems.push(`${uploads.length} multipart upload(s) begun and never completed nor aborted`);
      return problems;
    }

    return topology;
  } catch (error) {
    await cleanup();
    throw error;
  }
}

export type FaultTopology = Awaited<ReturnType<typeof startFaultTopology>>;

/** When a worker logged that it started the job (pino's ISO `time`, the first time), or undefined. */
export function startedAt(worker: WatchedProcess, jobId: string): number | undefined {
  return jobStarts(worker, jobId)[0];
}

/** Every time a worker logged that it started the job (`<queue> job started`), oldest first. */
export function jobStarts(worker: WatchedProcess, jobId: string): number[] {
  const times: number[] = [];
  for (const line of worker.process.output().split('\n')) {
    if (!line.includes(`"jobId":"${jobId}"`) || !line.includes('job started')) continue;
    try {
      times.push(Date.parse((JSON.parse(line) as { time: string }).time));
    } catch {
      continue;
    }
  }
  return times;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function tail(text: string): string {
  return text.slice(-3000);
}

async function expectOk(pending: Promise<{ status: number; text: string }>, what: string): Promise<void> {
  const res = await pending;
  if (res.status !== 200 && res.status !== 201) throw new Error(`${what} failed: ${res.status} ${res.text}`);
}

/** A valid LEDES file with invoice numbers prefixed by `tag`, so the duplicate check never refuses it. */
async function ledesFile(lines: number, tag: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of generateLedes(lines)) chunks.push(chunk);
  return Buffer.from(Buffer.concat(chunks).toString('utf8').replaceAll('|INV-', `|${tag}-INV-`));
}
