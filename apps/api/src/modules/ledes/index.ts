// The ledes module's public entry: its routes and access policy (nothing else is used outside the module).
export { ledesPolicy } from './policy.ts';
export { ledesRoutes } from './router.ts';
