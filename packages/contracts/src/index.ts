export * from './roles.ts';
export * from './errors.ts';
export * from './auth.ts';
export * from './users.ts';
export * from './contact.ts';
export * from './pagination.ts';
export * from './jobs.ts';
export * from './realtime.ts';
