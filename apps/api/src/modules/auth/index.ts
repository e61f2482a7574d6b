// The auth module's public entry: its routes and access policy (nothing else is used outside the module).
export { authPolicy } from './policy.ts';
export { authRoutes } from './router.ts';
