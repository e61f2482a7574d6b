// The forecast module's public entry: its routes and access policy (nothing else is used outside the module).
export { forecastPolicy } from './policy.ts';
export { forecastRoutes } from './router.ts';
