import type http from 'node:http';
import { createMaintenance, registerMaintenance, type Maintenance } from '@portal/db';
import { REALTIME_PATH } from '@portal/contracts';
import type { AppContext } from '../context.ts';

/** The embedded database's scheduled pass (decision 175); bulk writers request one at their end too. */
export const DB_MAINTENANCE_INTERVAL_MS = 10 * 60_000;
/** A statement waits at most this long for the requests in flight to end (a busy portal is still maintained). */
export const DB_MAINTENANCE_MAX_WAIT_MS = 30_000;

/**
 * The HTTP requests in flight on a server. PGlite answers one statement at a time (on a thread of its own,
 * decision 180): a VACUUM or ANALYZE holds the database whole and every request's statement waits for it, so
 * the maintenance starts each statement when no request is being answered. socket.io's
 * long-polling requests (held open by design) are not counted.
 */
export class RequestGate {
  private inFlight = 0;
  private waiters: Array<() => void> = [];

  constructor(private readonly maxWaitMs = DB_MAINTENANCE_MAX_WAIT_MS) {}

  attach(server: http.Server): void {
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      if (req.url?.startsWith(REALTIME_PATH)) return;
      this.inFlight++;
      res.once('close', () => {
        this.inFlight--;
        if (this.inFlight === 0) this.release();
      });
    });
  }

  get requestsInFlight(): number {
    return this.inFlight;
  }

  /** Resolves when no request is in flight (at once if none), or after `maxWaitMs`. */
  idle = (): Promise<void> => {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.maxWaitMs);
      timer.unref();
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  };

  private release(): void {
    const waiting = this.waiters;
    this.waiters = [];
    // After the answer's 'close': the next request, if one is already read, is served first.
    setImmediate(() => {
      for (const waiter of waiting) waiter();
    });
  }
}

/**
 * The embedded mode's maintenance: a pass at start (a database seeded or imported into by an older
 * version), every `DB_MAINTENANCE_INTERVAL_MS`, and when a bulk writer ends (`afterBulkWrite`). Each
 * statement is logged (table, action, ms: no personal data) and timed in `portal_db_maintenance_seconds`.
 * PostgreSQL: nothing here (autovacuum; the writers analyse). `stop` waits for the statement under way.
 */
export function scheduleDatabaseMaintenance(
  ctx: Pick<AppContext, 'database' | 'db' | 'logger' | 'metrics'>,
  gate: Pick<RequestGate, 'idle'>,
): { maintenance?: Maintenance; stop(): Promise<void> } {
  if (ctx.database.driver !== 'pglite') return { stop: () => Promise.resolve() };
  const maintenance: Maintenance = createMaintenance({
    db: ctx.db,
    idle: gate.idle,
    onStep: ({ table, action, ms }) => {
      ctx.metrics.dbMaintenance.observe({ table, action }, ms / 1000);
      ctx.logger.info({ event: 'db_maintenance', table, action, ms: Math.round(ms) }, 'database maintenance');
    },
    onError: (error) => ctx.logger.warn({ err: error }, 'database maintenance failed'),
  });
  registerMaintenance(ctx.db, maintenance);
  maintenance.request();
  const timer = setInterval(() => maintenance.request(), DB_MAINTENANCE_INTERVAL_MS);
  timer.unref();
  return {
    maintenance,
    async stop() {
      clearInterval(timer);
      registerMaintenance(ctx.db, undefined);
      await maintenance.close();
    },
  };
}
