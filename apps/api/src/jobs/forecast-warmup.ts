import type { AppContext } from '../context.ts';
import { today } from '../modules/patents/index.ts';
import { forecastRefreshSettled, refreshForecastIfNeeded } from '../modules/forecast/index.ts';

/** The first check after start: once the portal answers, not during its boot. */
export const FORECAST_WARMUP_FIRST_MS = 3_000;

/**
 * The renewal forecast's warm-up (decision 235). The forecast is rebuilt off the request path (decision 216), but only
 * once a request found it needed: the first reader of a day, or after an import, was answered `updating` with the
 * figures stored before. Here the API checks a few seconds after start and then every `config.forecast.warmupEveryMs`
 * (a new day, patents named for a rebuild, rows stored through too early a day: three small reads) and, when needed,
 * starts the same background refresh a request would (the database's background lane, one at a time per process;
 * other replicas' batches take their patents with SKIP LOCKED). 0 turns it off.
 */
export function scheduleForecastWarmup(ctx: AppContext): { stop(): Promise<void> } {
  const every = ctx.config.forecast.warmupEveryMs;
  if (every === 0) return { stop: async () => {} };
  let checking: Promise<void> | null = null;
  const check = () => {
    if (checking || ctx.lifecycle.stopping) return;
    checking = refreshForecastIfNeeded(ctx.db, today(ctx), ctx.logger)
      .catch((err: unknown) => ctx.logger.warn({ err, event: 'forecast_warmup_failed' }, 'forecast warm-up check failed; the next one tries again'))
      .finally(() => {
        checking = null;
      });
  };
  const first = setTimeout(check, Math.min(FORECAST_WARMUP_FIRST_MS, every));
  const timer = setInterval(check, every);
  first.unref();
  timer.unref();
  return {
    async stop() {
      clearTimeout(first);
      clearInterval(timer);
      await checking;
      await forecastRefreshSettled();
    },
  };
}
