// The patents module's public entry: its routes and policy, and the reads other modules rely on (receipts, forecast).
export { patentSocketRooms } from './live.ts';
export { patentsPolicy } from './policy.ts';
export { patentsRoutes } from './router.ts';
export { readPatent, readScope, today, type PatentScope } from './service.ts';
