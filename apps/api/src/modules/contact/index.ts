// The contact module's public entry: its routes and access policy (nothing else is used outside the module).
export { contactPolicy } from './policy.ts';
export { contactRoutes } from './router.ts';
