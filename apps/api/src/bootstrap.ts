import http from 'node:http';
import type { Config } from '@portal/config';
import { inRequestLane, openDatabase } from '@portal/db';
import { createLogger, type Logger } from '@portal/logger';
import { createMailTransport } from '@portal/mail';
import { createInlineQueue, type QueuePort } from '@portal/queue';
import { attachRealtimeServer, createInProcessPublisher, type RealtimePublisher } from '@portal/realtime';
import { createStorage } from '@portal/storage';
import { bindJobs, consumedQueues, EMBEDDED_FINDINGS_PER_STATEMENT, recheckSchedules, REGISTERED_QUEUES, retryPolicies, RUN_TABLES, sharedThreadEngine, sweepJobs } from '@portal/jobs';
import { cachedProbe, createMetrics, instrumentJobs, storageWriteProbe } from '@portal/ops';
import { systemClock, type Clock } from './clock.ts';
import type { AppContext } from './context.ts';
import { createHttpApp } from './http/app.ts';
import { readSessionToken, resolveSession } from './http/session.ts';

import { scheduleStorageCleanup } from './jobs/storage-cleanup.ts';
import { RequestGate, scheduleDatabaseMaintenance } from './jobs/database-maintenance.ts';
import { scheduleForecastWarmup } from './jobs/forecast-warmup.ts';
import { schedulePatentJobs } from './jobs/patent-schedules.ts';
import { createRegisterSource } from '@portal/registers';
import { seedBaseData, type SeededAdmin } from './seed.ts';
import { MemoryCounterStore, RedisCounterStore, type CounterStore } from './security/counters.ts';
import { DeferredWork } from './security/deferred.ts';
import { LoginLimiter, RateLimiter } from './security/login-limiter.ts';
import { resolveMfaKeys } from './security/mfa.ts';
import { patentSocketRooms } from './modules/patents/index.ts';
import { mountQueueDashboard, type QueueDashboard } from './http/queue-dashboard.ts';

export interface Portal {
  ctx: AppContext;
  server: http.Server;
  admin: SeededAdmin;
  policy: ReturnType<typeof createHttpApp>['policy'];
  listen(port?: number): Promise<string>;
  close(): Promise<void>;
}

export interface PortalOptions {
  clock?: Clock;
  logger?: Logger;
  /**
   * The embedded database's thread stopped unasked (decision 180), after the fatal log line: every statement fails
   * from now on. The API process exits non-zero here (`main.ts`), so its supervisor restarts it. Default: nothing more.
   */
  onFatal?: (error: Error) => void;
}

/**
 * Wires the whole API from a validated configuration: database (migrated and seeded), storage, queue,
 * realtime, HTTP. The embedded mode hosts the job processors in-process through the inline queue.
 */
export async function createPortal(config: Config, options: PortalOptions = {}): Promise<Portal> {
  const logger = options.logger ?? createLogger({ level: config.logLevel, name: 'api' });
  const clock = options.clock ?? systemClock;
  // First: production without MFA_ENCRYPTION_KEY stops here, before any migration runs.
  const mfaKeys = resolveMfaKeys(config);
  if (!config.mfa.requiredForAdmins) logger.warn('MFA_REQUIRED_FOR_ADMINS=false: admins may sign in without a second factor');

  const database = openDatabase(config.database, {
    onThreadCrash: (error) => {
      logger.fatal({ err: error }, 'the embedded database thread stopped');
      options.onFatal?.(error);
    },
  });
  await database.migrate();
  const admin = await seedBaseData(database.db, config.admin);
  // Patent records no checking path wrote yet (from before migration 0012) are checked against the engine once (decision 147).
  const rechecked = await recheckSchedules(database.db);
  if (rechecked.checked > 0) logger.info({ event: 'patent_schedules_rechecked', ...rechecked }, 'patent records checked against the computed schedule');

  const storage = await createStorage(config.storage);
  await storage.ensureReady();

  // Production only: the embedded portal never loads ioredis, BullMQ, the socket.io Redis adapter and
  // emitter, or the S3 client (some 13 MB of heap and 10–30 MB of resident memory, docs/benchmarks.md).
  const production = config.redisUrl
    ? await Promise.all([import('ioredis'), import('@portal/queue/redis'), import('@portal/realtime/redis')]).then(([ioredis, queue, realtime]) => ({ Redis: ioredis.Redis, ...queue, ...realtime }))
    : undefined;
  const redis = production && config.redisUrl ? new production.Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: false }) : undefined;
  // Without a listener ioredis prints every failed reconnection as an unhandled error; requests see
  // the outage as a 503 (http/errors.ts), readiness as 'down'.
  redis?.on('error', (error: Error) => logger.debug({ err: error }, 'counter store: redis unavailable'));
  const counters: CounterStore = redis ? new RedisCounterStore(redis) : new MemoryCounterStore(clock);

  const inProcess = config.redisUrl ? undefined : createInProcessPublisher();
  const realtime: RealtimePublisher = inProcess ?? production!.createRedisPublisher(config.redisUrl!);

  const mailTransport = config.redisUrl ? undefined : createMailTransport(config.mail);
  // Queue depths come from whichever driver runs (BullMQ's counts, or the inline driver's lanes), for
  // every queue of the registry; sockets are counted once the socket server exists.
  let socketCount = () => 0;
  const queueRef: { current?: QueuePort } = {};
  const metrics = createMetrics({
    service: 'api',
    queueDepth: { queues: REGISTERED_QUEUES, counts: (name) => queueRef.current!.counts(name) },
    runsFrom: database.db,
    runTables: RUN_TABLES,
    sockets: () => socketCount(),
  });
  const ctxRef: { current?: AppContext } = {};
  // Set once the context exists: Redis coming back triggers a sweep of everything waiting.
  let onQueueReconnect = () => {};
  // The job registry is the one list of queues: the inline driver runs its handlers, the BullMQ
  // producer takes its retry policies, and nothing else can be enqueued (no consumer would take it).
  const queue: QueuePort = production && config.redisUrl
    ? production.createBullmqQueue({ redisUrl: config.redisUrl, queues: REGISTERED_QUEUES, retry: retryPolicies(), onReconnect: () => onQueueReconnect() })
    : createInlineQueue(
        consumedQueues(
          instrumentJobs(bindJobs(
            {
              db: database.db,
              transport: mailTransport!,
              storage,
              realtime,
              logger: logger.child({ service: 'inline-worker' }),
              clock,
              // In-process, the LEDES engine runs in a worker thread so a big file never blocks the API's event loop.
              engine: sharedThreadEngine(),
              // PGlite answers one statement at a time: smaller finding inserts, shorter waits for the requests' statements.
              ...(config.database.driver === 'pglite' ? { findingsPerStatement: EMBEDDED_FINDINGS_PER_STATEMENT } : {}),
              // The links of the opted-in LEDES mails (issue 31 §3).
              publicUrl: config.http.publicUrl,
              // The register sync's source (issue 29 §3): null without OPS credentials, and each run says so. On the
              // portal's clock, which the sync paces itself by.
              registerSource: createRegisterSource(config.registers, { now: () => clock.now().getTime() }),
              // The reminders' and notices' mails go to the queue once committed (the queue exists by the time a job runs).
              enqueueMail: async (mailId: string) => {
                await ctxRef.current?.queue.enqueue('mail', { mailId });
              },
            },
            config.workers.concurrency,
          ), metrics),
        ),
        { report: (message, error) => logger.error({ err: error }, message) },
      );

  queueRef.current = queue;

  let disconnect: (sessionId: string) => void = () => {};
  const ctx: AppContext = {
    config,
    logger,
    clock,
    database,
    db: database.db,
    storage,
    queue,
    realtime,
    limits: {
      login: new LoginLimiter(counters),
      contact: new RateLimiter(counters, 'contact', 10, 10 * 60_000),
      resetRequest: new RateLimiter(counters, 'reset', 20, 15 * 60_000),
      upload: new RateLimiter(counters, 'upload', config.uploads.perUserPer10Minutes, 10 * 60_000),
    },
    mfaKeys,
    deferred: new DeferredWork(logger),
    metrics,
    lifecycle: { stopping: false },
    readiness: {
      database: () => database.ping(),
      ...(redis ? { redis: async () => void (await redis.ping()) } : {}),
      // A write and its delete, bounded and cached (`cachedProbe`): a store that reads but refuses
      // writes refuses every upload, so it is not ready.
      storage: cachedProbe(storageWriteProbe(storage)),
    },
    disconnectSession: (sessionId) => disconnect(sessionId),
  };
  ctxRef.current = ctx;

  // Production: bull-board over the registry's queues, behind the session and the admin role.
  const dashboard: QueueDashboard | undefined = production && config.redisUrl ? await mountQueueDashboard(config.redisUrl, logger) : undefined;
  const { app, policy } = createHttpApp(ctx, { queueDashboard: dashboard?.router });
  const server = http.createServer(app);
  // The embedded database's maintenance starts a statement only when no request is in flight (decision 175).
  const requests = new RequestGate();
  requests.attach(server);
  // Idle connections stay open 65 s, not Node's 5 s. A client reuses one until shortly before the advertised
  // timeout counted from when it finished reading the last answer, the server from when it finished writing
  // it: after a large answer on a busy machine the two drifted apart by more than the client's margin, and a
  // request sent on a connection the server was closing was reset. Also longer than the 60 s idle timeout of
  // common load balancers, which would otherwise meet the same race.
  server.keepAliveTimeout = 65_000;
  const sockets = await attachRealtimeServer(server, {
    allowedOrigins: config.security.allowedOrigins,
    // A socket's handshake is a request too: its statements take the request lane (decision 185).
    authenticate: (cookieHeader) =>
      inRequestLane(async () => {
        const auth = await resolveSession(ctx, readSessionToken(ctx, cookieHeader));
        return auth ? { userId: auth.userId, isAdmin: auth.isAdmin, sessionId: auth.sessionId, rooms: await patentSocketRooms(ctx, auth) } : null;
      }),
    redisUrl: config.redisUrl,
    inProcess,
  });
  disconnect = sockets.disconnectSession;
  socketCount = () => sockets.io.of('/').sockets.size;

  // Never rejects: a failed sweep is logged and the next one tries again.
  const runSweep = async (everything: boolean): Promise<void> => {
    try {
      await sweepJobs(ctx, { everything });
    } catch (error) {
      logger.warn({ err: error }, 'job sweep failed');
    }
  };
  const sweeps = new Set<Promise<void>>();
  const startSweep = (everything: boolean) => {
    const running = runSweep(everything).finally(() => sweeps.delete(running));
    sweeps.add(running);
  };
  // The inline queue keeps nothing across a restart: at start, everything still waiting is enqueued again.
  if (queue.driver === 'inline') startSweep(true);
  // Uploads accepted while Redis was down, and jobs lost with its data, need not wait for the minute sweep.
  onQueueReconnect = () => {
    logger.info('redis is back: enqueueing everything waiting');
    startSweep(true);
  };
  const sweep = setInterval(() => startSweep(false), 60_000);
  sweep.unref();
  const stopStorageCleanup = scheduleStorageCleanup(ctx);
  const stopPatentJobs = schedulePatentJobs(ctx);
  const databaseMaintenance = scheduleDatabaseMaintenance(ctx, requests);
  const forecastWarmup = scheduleForecastWarmup(ctx);

  return {
    ctx,
    server,
    admin,
    policy,
    listen(port = config.http.port) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, config.http.host, () => {
          const address = server.address();
          resolve(`http://localhost:${typeof address === 'object' && address ? address.port : port}`);
        });
      });
    },
    async close() {
      ctx.lifecycle.stopping = true;
      clearInterval(sweep);
      onQueueReconnect = () => {};
      await Promise.all(sweeps);
      await stopStorageCleanup();
      stopPatentJobs();
      await databaseMaintenance.stop();
      await forecastWarmup.stop();
      await sockets.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await ctx.deferred.settled();
      await queue.close();
      await dashboard?.close();
      await realtime.close();
      mailTransport?.close();
      redis?.disconnect();
      await database.close();
    },
  };
}
