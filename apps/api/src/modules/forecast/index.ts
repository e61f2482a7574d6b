// The forecast module's public entry: its routes and access policy, and the warm-up's check (jobs/forecast-warmup.ts).
export { forecastPolicy } from './policy.ts';
export { forecastRoutes } from './router.ts';
export { forecastRefreshSettled, refreshForecastIfNeeded } from './service.ts';
