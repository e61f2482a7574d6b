import type { Express, Request, Response } from 'express';
import type { AppContext } from '../context.ts';
import { RETRY_AFTER_SECONDS } from './errors.ts';

/** A check slower than this counts as down: a readiness probe must answer even when a dependency hangs. */
const CHECK_TIMEOUT_MS = 3000;

function withinTimeout(check: () => Promise<void>): Promise<'ok' | 'down'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'down'>((resolve) => {
    timer = setTimeout(() => resolve('down'), CHECK_TIMEOUT_MS);
  });
  const result = check().then(
    () => 'ok' as const,
    () => 'down' as const,
  );
  return Promise.race([result, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Liveness (`/health/live`): the process is up and its event loop answers; restart it when this fails.
 * Readiness (`/health/ready`, and `/health`): every dependency this node needs (database, Redis when
 * configured, storage) answers; route traffic elsewhere while it fails, but do not restart for it.
 */
export function mountHealth(app: Express, ctx: AppContext): void {
  app.get('/health/live', (_req, res) => {
    res.json({ status: 'ok' });
  });
  const ready = async (_req: Request, res: Response) => {
    const names = Object.keys(ctx.readiness);
    const results = await Promise.all(names.map((name) => withinTimeout(ctx.readiness[name]!)));
    const checks = Object.fromEntries(names.map((name, i) => [name, results[i]]));
    if (results.every((r) => r === 'ok')) {
      res.json({ status: 'ok', checks });
      return;
    }
    res.set('Retry-After', String(RETRY_AFTER_SECONDS));
    res.status(503).json({ status: 'unavailable', checks });
  };
  app.get('/health/ready', ready);
  app.get('/health', ready);
}
