// The guidelines module's public entry: its routes and access policy.
export { guidelinesPolicy } from './policy.ts';
export { guidelinesRoutes } from './router.ts';
