/** Injected so tests can move time (lockout, link expiry) without sleeping. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };
