// The second-factor module's public entry: its routes and policy, and the step a correct password leads to (used by auth).
export { mfaPolicy } from './policy.ts';
export { mfaRoutes } from './router.ts';
export { startChallenge, stepAfterPassword } from './service.ts';
