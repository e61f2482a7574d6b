import type { Express, Request, Response } from 'express';
import { checkReadiness, hasMetricsToken } from '@portal/ops';
import type { AppContext } from '../context.ts';
import { AppError, RETRY_AFTER_SECONDS } from './errors.ts';

/** The paths answered before any /api guard, labelled by their own name in the HTTP metrics. */
export const OPS_PATHS = ['/healthz', '/readyz', '/health/live', '/health/ready', '/health', '/metrics'] as const;

/**
 * Liveness (`/healthz`, alias `/health/live`): the process is up and its event loop answers; restart
 * it when this fails. Readiness (`/readyz`, aliases `/health/ready` and `/health`): every dependency
 * this node needs (database, Redis when configured, storage) answers and the node is not stopping;
 * route traffic elsewhere while it fails, but do not restart for it. `/metrics`: Prometheus text
 * behind the `METRICS_TOKEN` bearer token, 404 when none is configured (decision 127).
 */
export function mountHealth(app: Express, ctx: AppContext): void {
  const live = (_req: Request, res: Response) => {
    res.set('Cache-Control', 'no-store');
    res.json({ status: 'ok' });
  };
  app.get('/healthz', live);
  app.get('/health/live', live);
  const ready = async (_req: Request, res: Response) => {
    const { ok, checks } = await checkReadiness(ctx.readiness);
    const stopping = ctx.lifecycle.stopping;
    res.set('Cache-Control', 'no-store');
    if (ok && !stopping) {
      res.json({ status: 'ok', checks });
      return;
    }
    res.set('Retry-After', String(RETRY_AFTER_SECONDS));
    res.status(503).json({ status: stopping ? 'stopping' : 'unavailable', checks });
  };
  app.get('/readyz', ready);
  app.get('/health/ready', ready);
  app.get('/health', ready);
  app.get('/metrics', async (req, res) => {
    const token = ctx.config.metrics.token;
    if (!token) throw new AppError('not_found');
    if (!hasMetricsToken(req.get('authorization'), token)) {
      res.set('WWW-Authenticate', 'Bearer');
      throw new AppError('unauthorized');
    }
    const text = await ctx.metrics.render();
    res.set('Cache-Control', 'no-store');
    res.type(ctx.metrics.contentType).send(text);
  });
}
