// The receipts module's public entry: its routes and access policy (nothing else is used outside the module).
export { receiptsPolicy } from './policy.ts';
export { receiptsRoutes } from './router.ts';
