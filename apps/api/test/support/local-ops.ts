import { FakeOps, fixture, RECORDED_HEADERS } from '../../../../packages/registers/test/ops-server.ts';

/**
 * The fault suite's patent office: a local OPS (the fixture server of `packages/registers/test`) answering every EP
 * publication number with recorded answers, so the register sync's workers read a real HTTP service they do not own.
 * Its pacing header asks for 300 calls a minute per service (200 ms apart), so a few hundred patents take a minute;
 * `throttle` answers the next data calls 429 with Retry-After, as OPS does when it is overloaded.
 */
export interface LocalOps {
  url: string;
  /** The next `calls` data calls are answered 429 (`X-Throttling-Control` black, `Retry-After: retryAfterS`). */
  throttle(calls: number, retryAfterS: number): void;
  /** Data calls answered 429 so far. */
  readonly throttled: number;
  /** How many times the register's procedural steps of `publication` (`EP3000001`) were read (answered 200). */
  reads(publication: string): number;
  stop(): Promise<void>;
}

const PACED = { ...RECORDED_HEADERS, 'X-Throttling-Control': 'idle (images=green:300, inpadoc=green:300, other=green:300, retrieval=green:300, search=green:30)' };
const OVERLOADED = { 'Content-Type': 'application/xml', 'X-Throttling-Control': 'busy (images=red:300, inpadoc=red:300, other=red:300, retrieval=red:300, search=red:30)' };
const NOT_FOUND = { status: 404, headers: { 'Content-Type': 'application/xml' }, body: fixture('fault-entity-not-found.xml') };
const STEPS = fixture('register-procedural-steps-EP2400812.xml');
const UPP = fixture('register-upp-EP2400812.xml');
const DATA = /^\/3\.2\/rest-services\/(register|legal)\/publication\/epodoc\/(EP\d+)(\/[a-z-]+)?$/;

export async function startLocalOps(): Promise<LocalOps> {
  let toThrottle = 0;
  let retryAfterS = 0;
  let throttled = 0;
  const read = new Map<string, number>();
  const ops = await new FakeOps().tokens().start();
  ops.fallback((request) => {
    const m = DATA.exec(request.path);
    if (!m) return { status: 599, body: `no route ${request.method} ${request.path}` };
    if (toThrottle > 0) {
      toThrottle -= 1;
      throttled += 1;
      return { status: 429, headers: { ...OVERLOADED, 'Retry-After': String(retryAfterS) }, body: '' };
    }
    const [, service, number, tail] = m as unknown as [string, string, string, string | undefined];
    if (service === 'legal') return NOT_FOUND;
    if (tail === '/procedural-steps') {
      read.set(number, (read.get(number) ?? 0) + 1);
      return { status: 200, headers: PACED, body: STEPS };
    }
    if (tail === '/upp') return { status: 200, headers: PACED, body: UPP };
    return { status: 599, body: `no route ${request.method} ${request.path}` };
  });
  return {
    url: ops.url,
    throttle(calls, after) {
      toThrottle = calls;
      retryAfterS = after;
    },
    get throttled() {
      return throttled;
    },
    reads: (publication) => read.get(publication) ?? 0,
    stop: () => ops.stop(),
  };
}
