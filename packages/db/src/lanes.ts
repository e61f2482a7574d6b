import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The embedded database's two lanes (decision 185). PGlite answers one statement at a time; on its thread
 * (decision 180) the statements wait in two queues: those issued while the API serves an HTTP request
 * ('request') are handed to PGlite before those of jobs and maintenance ('background'), so a request waits
 * for the one statement (or background transaction) under way, not for every bulk statement queued before it.
 * The lane is the caller's asynchronous context: the API runs each request in `inRequestLane`; everything
 * else (jobs, timers, the maintenance pass) is 'background'. PostgreSQL (the production pool) ignores it.
 */
export type DatabaseLane = 'request' | 'background';

const lane = new AsyncLocalStorage<DatabaseLane>();

/** Runs `fn`, and every statement issued from it or its continuations, in the request lane. */
export function inRequestLane<T>(fn: () => T): T {
  return lane.run('request', fn);
}

/** Runs `fn` and its continuations in the background lane, even when started while serving a request (work it leaves running). */
export function inBackgroundLane<T>(fn: () => T): T {
  return lane.run('background', fn);
}

/** The lane of the current asynchronous context: 'background' outside `inRequestLane`. */
export function currentLane(): DatabaseLane {
  return lane.getStore() ?? 'background';
}
