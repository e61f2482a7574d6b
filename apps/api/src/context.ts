import type { Logger } from 'pino';
import type { Config } from '@portal/config';
import type { Database, DatabaseHandle } from '@portal/db';
import type { QueuePort } from '@portal/queue';
import type { RealtimePublisher } from '@portal/realtime';
import type { Storage } from '@portal/storage';
import type { PortalMetrics } from '@portal/ops';
import type { DeferredWork } from './security/deferred.ts';
import type { Clock } from './clock.ts';
import type { LoginLimiter, RateLimiter } from './security/login-limiter.ts';
import type { MfaKeys } from './security/mfa.ts';

/** Everything a request handler may use; built once in bootstrap.ts and passed down explicitly. */
export interface AppContext {
  config: Config;
  logger: Logger;
  clock: Clock;
  database: DatabaseHandle;
  db: Database;
  storage: Storage;
  queue: QueuePort;
  realtime: RealtimePublisher;
  limits: {
    login: LoginLimiter;
    contact: RateLimiter;
    resetRequest: RateLimiter;
    upload: RateLimiter;
  };
  /** Keys of the second factor: the TOTP secrets' encryption, the recovery codes' HMAC (security/mfa.ts). */
  mfaKeys: MfaKeys;
  /** Work started after the answer (see security/deferred.ts). */
  deferred: DeferredWork;
  /** Readiness checks by dependency name (database, redis, storage): each resolves when it answers. */
  readiness: Record<string, () => Promise<void>>;
  /** This process' Prometheus registry (`GET /metrics`, decision 130). */
  metrics: PortalMetrics;
  /** `stopping` turns true on SIGTERM: /readyz answers 503 so the proxy stops sending traffic. */
  lifecycle: { stopping: boolean };
  /** Set once the socket server is attached; ends the live sockets of a session at logout. */
  disconnectSession(sessionId: string): void;
}
