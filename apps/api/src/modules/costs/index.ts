// The cost tables module's public entry: its routes and access policy.
export { costsPolicy } from './policy.ts';
export { costsRoutes } from './router.ts';
