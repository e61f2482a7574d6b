import { AppError } from '../domain/errors.ts';
import { LOGIN_LOCKOUT_ATTEMPTS, LOGIN_LOCKOUT_MINUTES } from '@portal/contracts';
import { sha256 } from './tokens.ts';
import type { CounterStore } from './counters.ts';

const LOCKOUT_MS = LOGIN_LOCKOUT_MINUTES * 60_000;
/** Per-IP ceiling against password spraying across many accounts (HARD-12). */
const IP_MAX_FAILURES = 30;
const IP_WINDOW_MS = 15 * 60_000;
/** Per-account ceiling against guessing one account from many addresses (HARD-12; AUTH-07: at most 100 an hour). */
const ACCOUNT_MAX_FAILURES = 50;
const ACCOUNT_WINDOW_MS = 60 * 60_000;

/**
 * 5 failures for one e-mail from one IP lock that pair for 5 minutes, whether or not the account
 * exists, so the answer never tells which e-mails are registered. Keyed by the pair (LOAD-08), so an
 * attacker locks out only himself, not the account's owner elsewhere nor the other users behind his
 * NAT; the per-account and per-IP ceilings stop guessing spread over many addresses or accounts.
 * Keys are hashes, never the address itself.
 */
export class LoginLimiter {
  constructor(private readonly store: CounterStore) {}

  private pairKey(email: string, ip: string) {
    return `login:pair:${sha256(`${email.toLowerCase()}\n${ip}`)}`;
  }
  private accountKey(email: string) {
    return `login:account:${sha256(email.toLowerCase())}`;
  }
  private ipKey(ip: string) {
    return `login:ip:${ip}`;
  }

  /** Seconds until the login is allowed again, or 0 when it is not blocked. */
  async blockedFor(email: string, ip: string): Promise<number> {
    const [byPair, byAccount, byIp] = await Promise.all([
      this.store.peek(this.pairKey(email, ip)),
      this.store.peek(this.accountKey(email)),
      this.store.peek(this.ipKey(ip)),
    ]);
    const blocking = [
      [byPair, LOGIN_LOCKOUT_ATTEMPTS],
      [byAccount, ACCOUNT_MAX_FAILURES],
      [byIp, IP_MAX_FAILURES],
    ] as const;
    const waits = blocking.filter(([counter, max]) => (counter?.count ?? 0) >= max).map(([counter]) => counter!.resetInMs);
    return waits.length ? Math.ceil(Math.max(...waits) / 1000) : 0;
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    const pair = this.pairKey(email, ip);
    const { count } = await this.store.increment(pair, LOCKOUT_MS);
    // The lockout runs its full five minutes from the failure that triggered it.
    if (count === LOGIN_LOCKOUT_ATTEMPTS) await this.store.extend(pair, LOCKOUT_MS);
    await this.store.increment(this.accountKey(email), ACCOUNT_WINDOW_MS);
    await this.store.increment(this.ipKey(ip), IP_WINDOW_MS);
  }

  async recordSuccess(email: string, ip: string): Promise<void> {
    await this.store.reset(this.pairKey(email, ip));
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

  /** Counts one hit; past the budget, throws the 429 with the seconds until the window ends. */
  async consume(key: string): Promise<void> {
    const { count, resetInMs } = await this.store.increment(`${this.name}:${key}`, this.windowMs);
    if (count > this.max) throw new AppError('rate_limited', { retryAfterSeconds: Math.ceil(resetInMs / 1000) });
  }
}
