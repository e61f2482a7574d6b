import http from 'node:http';
import { Redis } from 'ioredis';
import type { Config } from '@portal/config';
import { openDatabase } from '@portal/db';
import { createLogger, type Logger } from '@portal/logger';
import { createMailTransport } from '@portal/mail';
import { createBullmqQueue, createInlineQueue, type QueuePort } from '@portal/queue';
import { attachRealtimeServer, createInProcessPublisher, createRedisPublisher, type RealtimePublisher } from '@portal/realtime';
import { createStorage } from '@portal/storage';
import { createProcessors, markLedesRunFailed } from '@portal/jobs';
import { systemClock, type Clock } from './clock.ts';
import type { AppContext } from './context.ts';
import { createHttpApp } from './http/app.ts';
import { readSessionToken, resolveSession } from './http/session.ts';
import { sweepWaitingJobs } from './jobs/sweep.ts';
import { seedBaseData, type SeededAdmin } from './seed.ts';
import { MemoryCounterStore, RedisCounterStore, type CounterStore } from './security/counters.ts';
import { LoginLimiter, RateLimiter } from './security/login-limiter.ts';

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
}

/**
 * Wires the whole API from a validated configuration: database (migrated and seeded), storage, queue,
 * realtime, HTTP. The embedded mode hosts the job processors in-process through the inline queue.
 */
export async function createPortal(config: Config, options: PortalOptions = {}): Promise<Portal> {
  const logger = options.logger ?? createLogger({ level: config.logLevel, name: 'api' });
  const clock = options.clock ?? systemClock;

  const database = openDatabase(config.database);
  await database.migrate();
  const admin = await seedBaseData(database.db, config.admin);

  const storage = createStorage(config.storage);
  await storage.ensureReady();

  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: false }) : undefined;
  const counters: CounterStore = redis ? new RedisCounterStore(redis) : new MemoryCounterStore(clock);

  const inProcess = config.redisUrl ? undefined : createInProcessPublisher();
  const realtime: RealtimePublisher = inProcess ?? createRedisPublisher(config.redisUrl!);

  const mailTransport = config.redisUrl ? undefined : createMailTransport(config.mail);
  const ctxRef: { current?: AppContext } = {};
  const queue: QueuePort = config.redisUrl
    ? createBullmqQueue({ redisUrl: config.redisUrl })
    : createInlineQueue(createProcessors({ db: database.db, transport: mailTransport!, storage, realtime, logger: logger.child({ service: 'inline-worker' }), clock }), {
        concurrency: { ledes: config.workers.concurrency.ledes, mail: config.workers.concurrency.mail },
        onFailed: (queueName, payload, error) => {
          logger.error({ err: error, queue: queueName, payload }, 'job failed');
          // Returned, not dropped: the queue driver reports a hook that rejects.
          if (queueName === 'ledes') return markLedesRunFailed({ db: database.db, realtime, clock }, (payload as { runId: string }).runId, 'processing_failed');
        },
      });

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
    },
    disconnectSession: (sessionId) => disconnect(sessionId),
  };
  ctxRef.current = ctx;

  const { app, policy } = createHttpApp(ctx);
  const server = http.createServer(app);
  const sockets = attachRealtimeServer(server, {
    allowedOrigins: config.security.allowedOrigins,
    authenticate: async (cookieHeader) => {
      const auth = await resolveSession(ctx, readSessionToken(ctx, cookieHeader));
      return auth ? { userId: auth.userId, isAdmin: auth.isAdmin, sessionId: auth.sessionId } : null;
    },
    redisUrl: config.redisUrl,
    inProcess,
  });
  disconnect = sockets.disconnectSession;

  // A failed sweep is logged and retried by the next one.
  const runSweep = (everything: boolean) => {
    sweepWaitingJobs(ctx, { everything }).catch((error) => logger.warn({ err: error }, 'job sweep failed'));
  };
  // The inline queue keeps nothing across a restart: at start, everything still waiting is enqueued again.
  if (queue.driver === 'inline') runSweep(true);
  const sweep = setInterval(() => runSweep(false), 60_000);
  sweep.unref();

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
      clearInterval(sweep);
      await sockets.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await queue.close();
      await realtime.close();
      mailTransport?.close();
      redis?.disconnect();
      await database.close();
    },
  };
}
