// The analytics module's public entry: its routes and access policy.
export { analyticsPolicy } from './policy.ts';
export { analyticsRoutes } from './router.ts';
