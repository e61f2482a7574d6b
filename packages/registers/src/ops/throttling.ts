import type { Pacing, ThrottleColour } from '../types.ts';

/**
 * OPS's fair-use feedback (reference guide §2.3.3): every answer carries
 *   X-Throttling-Control: busy (images=green:100, inpadoc=yellow:60, other=green:1000, retrieval=green:200, search=green:30)
 *   X-IndividualQuotaPerHour-Used: 165630
 *   X-RegisteredQuotaPerWeek-Used: 165630
 * The number after each colour is the requests per minute the service accepts for that kind of call now.
 * Register calls count as `other`, legal events as `inpadoc`.
 */
export type OpsService = 'images' | 'inpadoc' | 'other' | 'retrieval' | 'search';

export interface ThrottleControl {
  readonly system: string;
  readonly services: ReadonlyMap<string, { colour: ThrottleColour; perMinute: number }>;
}

const COLOURS = new Set<ThrottleColour>(['green', 'yellow', 'red', 'black']);
const HEADER_RE = /^\s*([a-z]+)\s*\(([^)]*)\)\s*$/i;
const SERVICE_RE = /^\s*([a-z]+)\s*=\s*([a-z]+)\s*:\s*(\d+)\s*$/i;

/** Parses the header; an unreadable one gives null (the answer itself stays usable). */
export function parseThrottleControl(header: string | null): ThrottleControl | null {
  if (!header || header.length > 500) return null;
  const m = HEADER_RE.exec(header);
  if (!m) return null;
  const services = new Map<string, { colour: ThrottleColour; perMinute: number }>();
  for (const part of (m[2] as string).split(',')) {
    const s = SERVICE_RE.exec(part);
    if (!s) continue;
    const colour = (s[2] as string).toLowerCase() as ThrottleColour;
    if (!COLOURS.has(colour)) continue;
    services.set((s[1] as string).toLowerCase(), { colour, perMinute: Number(s[3]) });
  }
  return { system: (m[1] as string).toLowerCase(), services };
}

/** How much slower than the announced rate we go per colour: full rate on green, half on yellow, a quarter on red. */
const SLOWDOWN: Record<ThrottleColour, number> = { green: 1, yellow: 2, red: 4, black: Infinity };

/** The minimum gap between two calls of one kind under a colour and an announced rate (ms). */
export function minimumIntervalMs(colour: ThrottleColour, perMinute: number): number {
  if (colour === 'black' || perMinute <= 0) return Infinity;
  return Math.ceil((60_000 / perMinute) * SLOWDOWN[colour]);
}

/**
 * Retry-After as RFC 9110 has it: delay-seconds or an HTTP date. OPS clients differ on the unit (one reads
 * milliseconds); seconds is the longer reading, so the safer one for a service that shuts out abusers.
 */
export function parseRetryAfter(header: string | null, now: Date): number | null {
  if (!header) return null;
  const value = header.trim();
  if (/^\d{1,10}$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now.getTime());
}

export function parseUsed(header: string | null): number | null {
  if (!header || !/^\s*\d{1,15}\s*$/.test(header)) return null;
  return Number(header);
}

/** The pacing state the driver keeps from the answers it saw. */
export class PacingState {
  private system: string | null = null;
  private readonly services = new Map<string, { colour: ThrottleColour; perMinute: number }>();
  private readonly lastCallAt = new Map<string, number>();
  private hourlyUsed: number | null = null;
  private weeklyUsed: number | null = null;
  /** No call before this instant (set by a back-off answer). */
  blockedUntil = 0;

  noteCall(service: OpsService, at: number): void {
    this.lastCallAt.set(service, at);
  }

  noteAnswer(headers: Headers): void {
    const control = parseThrottleControl(headers.get('x-throttling-control'));
    if (control) {
      this.system = control.system;
      for (const [name, state] of control.services) this.services.set(name, state);
    }
    this.hourlyUsed = parseUsed(headers.get('x-individualquotaperhour-used')) ?? this.hourlyUsed;
    this.weeklyUsed = parseUsed(headers.get('x-registeredquotaperweek-used')) ?? this.weeklyUsed;
  }

  colourOf(service: OpsService): ThrottleColour | null {
    return this.services.get(service)?.colour ?? null;
  }

  /** When the next call of this kind may start: the back-off, else the last call plus the colour's interval. */
  nextCallAt(service: OpsService): number {
    const state = this.services.get(service);
    const last = this.lastCallAt.get(service);
    let next = this.blockedUntil;
    if (state && last !== undefined) {
      const gap = minimumIntervalMs(state.colour, state.perMinute);
      if (Number.isFinite(gap)) next = Math.max(next, last + gap);
    }
    return next;
  }

  snapshot(): Pacing {
    const services: Record<string, { colour: ThrottleColour; perMinute: number }> = {};
    for (const [name, state] of this.services) services[name] = { ...state };
    const next = Math.max(this.blockedUntil, this.nextCallAt('other'), this.nextCallAt('inpadoc'));
    return { system: this.system, services, hourlyUsed: this.hourlyUsed, weeklyUsed: this.weeklyUsed, nextCallAt: new Date(next) };
  }
}
