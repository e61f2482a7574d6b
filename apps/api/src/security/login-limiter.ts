import { LOGIN_LOCKOUT_ATTEMPTS, LOGIN_LOCKOUT_MINUTES } from '@portal/contracts';
import { sha256 } from './tokens.ts';
import type { CounterStore } from './counters.ts';

const LOCKOUT_MS = LOGIN_LOCKOUT_MINUTES * 60_000;
/** Per-IP ceiling against password spraying across many accounts (HARD-12). */
const IP_MAX_FAILURES = 30;
const IP_WINDOW_MS = 15 * 60_000;

/**
 * 5 failures for one e-mail lock it for 5 minutes, whether or not the account exists, so the answer
 * never tells which e-mails are registered. The counter is keyed by a hash, not the address itself.
 */
export class LoginLimiter {
  constructor(private readonly store: CounterStore) {}

  private emailKey(email: string) {
    return `login:email:${sha256(email.toLowerCase())}`;
  }
  private ipKey(ip: string) {
    return `login:ip:${ip}`;
  }

  async isBlocked(email: string, ip: string): Promise<boolean> {
    const [byEmail, byIp] = await Promise.all([this.store.peek(this.emailKey(email)), this.store.peek(this.ipKey(ip))]);
    return (byEmail?.count ?? 0) >= LOGIN_LOCKOUT_ATTEMPTS || (byIp?.count ?? 0) >= IP_MAX_FAILURES;
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    const { count } = await this.store.increment(this.emailKey(email), LOCKOUT_MS);
    // The lockout runs its full five minutes from the failure that triggered it.
    if (count === LOGIN_LOCKOUT_ATTEMPTS) await this.store.extend(this.emailKey(email), LOCKOUT_MS);
    await this.store.increment(this.ipKey(ip), IP_WINDOW_MS);
  }

  async recordSuccess(email: string): Promise<void> {
    await this.store.reset(this.emailKey(email));
  }
}

/** A plain per-key budget for expensive or abusable public endpoints (contact, reset requests). */
export class RateLimiter {
  constructor(
    private readonly store: CounterStore,
    private readonly name: string,
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Counts one hit and says whether it is still within budget. */
  async allow(key: string): Promise<boolean> {
    const { count } = await this.store.increment(`${this.name}:${key}`, this.windowMs);
    return count <= this.max;
  }
}
