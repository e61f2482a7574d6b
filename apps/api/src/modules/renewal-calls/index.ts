// The renewal calls module's public entry: its routes and access policy.
export { renewalCallsPolicy } from './policy.ts';
export { renewalCallsRoutes } from './router.ts';
