// The registers module's public entry: its routes and access policy (issue 29 §3).
export { registersPolicy } from './policy.ts';
export { registersRoutes } from './router.ts';
