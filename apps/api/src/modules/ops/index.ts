// The ops module's public entry: its routes and access policy (nothing else is used outside the module).
export { opsPolicy } from './policy.ts';
export { opsRoutes } from './router.ts';
