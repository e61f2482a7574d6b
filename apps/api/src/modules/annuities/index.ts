// The annuities module's public entry: its routes and access policy (nothing else is used outside the module).
export { annuitiesPolicy } from './policy.ts';
export { annuitiesRoutes } from './router.ts';
