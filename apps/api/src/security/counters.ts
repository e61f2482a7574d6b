import type { Redis } from 'ioredis';
import type { Clock } from '../clock.ts';

/** Fixed-window counters with a time to live, shared by the login lockout and the rate limits. */
export interface CounterStore {
  increment(key: string, windowMs: number): Promise<{ count: number; resetInMs: number }>;
  /** Restarts the window, e.g. so a lockout lasts its full duration from the failure that triggered it. */
  extend(key: string, windowMs: number): Promise<void>;
  peek(key: string): Promise<{ count: number; resetInMs: number } | null>;
  reset(key: string): Promise<void>;
}

/** Embedded mode: one process, so process memory is the shared store. */
export class MemoryCounterStore implements CounterStore {
  private readonly entries = new Map<string, { count: number; expiresAt: number }>();
  constructor(private readonly clock: Clock) {}

  private live(key: string) {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= this.clock.now().getTime()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  async increment(key: string, windowMs: number) {
    const now = this.clock.now().getTime();
    const entry = this.live(key) ?? { count: 0, expiresAt: now + windowMs };
    entry.count += 1;
    this.entries.set(key, entry);
    if (this.entries.size > 100_000) this.sweep(now);
    return { count: entry.count, resetInMs: entry.expiresAt - now };
  }

  async extend(key: string, windowMs: number) {
    const entry = this.live(key);
    if (entry) entry.expiresAt = this.clock.now().getTime() + windowMs;
  }

  async peek(key: string) {
    const entry = this.live(key);
    return entry ? { count: entry.count, resetInMs: entry.expiresAt - this.clock.now().getTime() } : null;
  }

  async reset(key: string) {
    this.entries.delete(key);
  }

  private sweep(now: number) {
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}

const INCREMENT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}`;

/** Production: counters live in Redis so every API node sees the same lockout. */
export class RedisCounterStore implements CounterStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'portal:limit:',
  ) {}

  async increment(key: string, windowMs: number) {
    const [count, ttl] = (await this.redis.eval(INCREMENT_SCRIPT, 1, this.prefix + key, windowMs)) as [number, number];
    return { count, resetInMs: Math.max(ttl, 0) };
  }

  async extend(key: string, windowMs: number) {
    await this.redis.pexpire(this.prefix + key, windowMs);
  }

  async peek(key: string) {
    const [count, ttl] = await Promise.all([this.redis.get(this.prefix + key), this.redis.pttl(this.prefix + key)]);
    return count === null ? null : { count: Number(count), resetInMs: Math.max(ttl, 0) };
  }

  async reset(key: string) {
    await this.redis.del(this.prefix + key);
  }
}
