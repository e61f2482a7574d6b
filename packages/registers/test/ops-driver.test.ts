import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createRegisterSource,
  parseRetryAfter,
  RegisterBadRequestError,
  RegisterUnavailableError,
  epNumberOf,
  OpsRegisterSource,
  RegisterMalformedAnswerError,
  RegisterQuotaExhaustedError,
  RegisterThrottledError,
  RegisterUnauthorisedError,
  type EpNumber,
} from '../src/index.ts';
import { FakeOps, fixture, RECORDED_HEADERS } from './ops-server.ts';

// Every answer below is a recorded OPS body from test/fixtures (README.md there says where each comes from),
// served over real HTTP by a server this file starts; nothing calls out.
const STEPS = 'GET /3.2/rest-services/register/publication/epodoc/EP2400812/procedural-steps';
const UPP = 'GET /3.2/rest-services/register/publication/epodoc/EP2400812/upp';
const LEGAL = 'GET /3.2/rest-services/legal/publication/epodoc/EP1000000';
const TOKEN = 'POST /3.2/auth/accesstoken';
const EP2400812: EpNumber = { kind: 'publication', digits: '2400812' };
const EP1000000: EpNumber = { kind: 'publication', digits: '1000000' };
const xml = (name: string) => ({ status: 200, headers: RECORDED_HEADERS, body: fixture(name) });

let ops: FakeOps;
let clock: number;
const source = (extra: Partial<ConstructorParameters<typeof OpsRegisterSource>[0]> = {}) =>
  new OpsRegisterSource({ consumerKey: 'key', consumerSecret: 'secret', baseUrl: ops.url, now: () => clock, ...extra });

beforeEach(async () => {
  clock = Date.UTC(2026, 10, 28, 9, 0, 0);
  ops = await new FakeOps().tokens().start();
});
afterEach(async () => {
  await ops.stop();
});

describe('the EP register (procedural steps, unitary patent)', () => {
  it('reads the renewal fees paid to the EPO, the status and the lapses, with the register page to open', async () => {
    ops.route(STEPS, xml('register-procedural-steps-EP2400812.xml')).route(UPP, xml('register-upp-EP2400812.xml'));
    const result = await source().readEpRegister(EP2400812);
    expect(result.found).toBe(true);
    if (!result.found) return;
    const url = 'https://register.epo.org/application?number=EP10167109&lng=en&tab=main';
    expect(result.record.renewals).toEqual(
      [
        [3, '2012-06-20'],
        [4, '2013-06-12'],
        [5, '2014-03-31'],
        [6, '2015-06-12'],
        [7, '2016-06-20'],
        [8, '2017-06-29'],
        [9, '2018-06-20'],
        [10, '2019-06-24'],
      ].map(([year, paidOn]) => ({ code: 'RFEE', year, paidOn, url })),
    );
    expect(result.record).toMatchObject({
      application: '10167109',
      publication: '2400812',
      status: { state: 'granted', text: 'No opposition filed within time limit', code: '7', since: '2020-10-02' },
      unitary: { state: 'none' },
      url,
      producedOn: '2025-10-25',
    });
    // The latest term-of-grant block (2022-07-08) lists 33 states.
    expect(result.record.lapses).toHaveLength(33);
    expect(result.record.lapses[0]).toEqual({ country: 'HU', lapsedOn: '2010-06-24' });
    expect(result.record.lapses.find((l) => l.country === 'FR')).toEqual({ country: 'FR', lapsedOn: '2020-06-30' });
  });

  it('reads a unitary effect: rejected (recorded) and registered (hand-edited from the recorded one)', async () => {
    const path = 'GET /3.2/rest-services/register/publication/epodoc/EP3970521';
    ops.route(`${path}/procedural-steps`, xml('register-upp-EP3970521.trimmed.xml')).route(`${path}/upp`, (_r, i) => xml(i === 0 ? 'register-upp-EP3970521.trimmed.xml' : 'register-upp-unitary-registered.handwritten.xml'));
    const register = source();
    const rejected = await register.readEpRegister({ kind: 'publication', digits: '3970521' });
    expect(rejected.found && rejected.record).toMatchObject({
      application: '21198049',
      status: { state: 'granted', since: '2024-10-11' },
      unitary: { state: 'rejected', text: 'Request for unitary effect rejected', code: '5', since: '2024-04-05' },
      renewals: [],
    });
    const registered = await register.readEpRegister({ kind: 'publication', digits: '3970521' });
    expect(registered.found && registered.record.unitary).toEqual({ state: 'registered', text: 'Unitary effect registered', code: '9', since: '2024-01-18' });
  });

  it('answers an unknown number (404, SERVER.EntityNotFound) as a result, with one call', async () => {
    ops.route(STEPS, { status: 404, headers: RECORDED_HEADERS, body: fixture('fault-entity-not-found.xml') });
    await expect(source().readEpRegister(EP2400812)).resolves.toEqual({ found: false, number: EP2400812 });
    expect(ops.count(STEPS)).toBe(1);
    expect(ops.count(UPP)).toBe(0);
  });

  it('refuses malformed XML and an answer over the size limit with a typed error', async () => {
    const truncated = fixture('register-procedural-steps-EP2400812.xml').slice(0, 4000);
    ops.route(STEPS, (_r, i) => (i === 0 ? { status: 200, body: truncated } : xml('register-procedural-steps-EP2400812.xml'))).route(UPP, xml('register-upp-EP2400812.xml'));
    await expect(source().readEpRegister(EP2400812)).rejects.toBeInstanceOf(RegisterMalformedAnswerError);
    const small = source({ xmlLimits: { maxChars: 5_000, maxDepth: 64, maxElements: 10_000 } });
    await expect(small.readEpRegister(EP2400812)).rejects.toThrow(/over 5000 characters/);
  });
});

describe('INPADOC legal events', () => {
  it('reads PGFP (fee paid to a national office) and PG25 (lapsed in a state) with exact values', async () => {
    ops.route(LEGAL, xml('legal-EP1000000.xml'));
    const result = await source().readLegalEvents(EP1000000);
    expect(result.found).toBe(true);
    if (!result.found) return;
    expect(result.record.application).toBe('99203729');
    const { events } = result.record;
    expect(events.filter((e) => e.code === 'PG25')).toHaveLength(19);
    expect(events.filter((e) => e.code === 'PGFP')).toEqual([
      { kind: 'annual_fee_paid', code: 'PGFP', country: 'NL', year: 11, paidOn: '2009-11-30', publishedOn: '2010-02-26', url: 'https://register.epo.org/application?number=EP99203729&lng=en&tab=federated' },
      { kind: 'annual_fee_paid', code: 'PGFP', country: 'GB', year: 11, paidOn: '2009-11-30', publishedOn: '2010-04-30', url: 'https://www.ipo.gov.uk/p-ipsum/Case/PublicationNumber/EP1000000' },
      { kind: 'annual_fee_paid', code: 'PGFP', country: 'BE', year: 11, paidOn: '2009-11-30', publishedOn: '2010-06-30', url: 'https://register.epo.org/application?number=EP99203729&lng=en&tab=federated' },
    ]);
    expect(events.find((e) => e.code === 'PG25' && e.country === 'GB')).toEqual({
      kind: 'lapsed',
      code: 'PG25',
      country: 'GB',
      effectiveOn: '2010-11-08',
      publishedOn: '2011-11-30',
      reason: 'LAPSE BECAUSE OF NON-PAYMENT OF DUE FEES',
      url: 'https://www.ipo.gov.uk/p-ipsum/Case/PublicationNumber/EP1000000',
    });
    // A state the portal has no office for is opened on the EP register's federated tab.
    expect(events.find((e) => e.code === 'PG25' && e.country === 'CH')?.url).toBe('https://register.epo.org/application?number=EP99203729&lng=en&tab=federated');
  });

  it('reads the FR national code PLFP (hand-written in the shape of the recorded REG events)', async () => {
    ops.route(LEGAL, xml('legal-plfp-FR.handwritten.xml'));
    const result = await source().readLegalEvents(EP1000000);
    expect(result.found && result.record.events).toEqual([
      { kind: 'annual_fee_paid', code: 'PLFP', country: 'FR', year: 11, paidOn: null, publishedOn: '2009-12-18', url: 'https://register.epo.org/application?number=EP99203729&lng=en&tab=federated' },
    ]);
  });
});

describe('the access token', () => {
  it('is asked once with the consumer key and secret, then reused until it expires, then asked again once', async () => {
    ops.route(LEGAL, xml('legal-EP1000000.xml'));
    const register = source();
    await register.readLegalEvents(EP1000000);
    await register.readLegalEvents(EP1000000);
    expect(ops.count(TOKEN)).toBe(1);
    const [tokenRequest] = ops.requests.filter((r) => r.method === 'POST');
    expect(tokenRequest).toMatchObject({ authorization: `Basic ${Buffer.from('key:secret').toString('base64')}`, contentType: 'application/x-www-form-urlencoded', body: 'grant_type=client_credentials' });
    expect(ops.requests.filter((r) => r.method === 'GET').map((r) => r.authorization)).toEqual(['Bearer token-1', 'Bearer token-1']);

    clock += 1199 * 1000; // the recorded token's expires_in
    await register.readLegalEvents(EP1000000);
    expect(ops.count(TOKEN)).toBe(2);
    expect(ops.requests.at(-1)?.authorization).toBe('Bearer token-2');
  });

  it('is refreshed once when OPS answers 400 invalid_access_token, and the call made once more', async () => {
    ops.route(LEGAL, (r) => (r.authorization === 'Bearer token-1' ? { status: 400, headers: { 'Content-Type': 'application/xml' }, body: fixture('fault-invalid-access-token.xml') } : xml('legal-EP1000000.xml')));
    const result = await source().readLegalEvents(EP1000000);
    expect(result.found).toBe(true);
    expect(ops.count(TOKEN)).toBe(2);
    expect(ops.count(LEGAL)).toBe(2);
  });

  it('is not refreshed in a loop: a fresh token refused too is a typed error after two calls', async () => {
    ops.route(LEGAL, { status: 400, headers: { 'Content-Type': 'application/xml' }, body: fixture('fault-invalid-access-token.xml') });
    await expect(source().readLegalEvents(EP1000000)).rejects.toBeInstanceOf(RegisterUnauthorisedError);
    expect(ops.count(TOKEN)).toBe(2);
    expect(ops.count(LEGAL)).toBe(2);
  });

  it('is asked once for reads made at the same time', async () => {
    ops.route(LEGAL, xml('legal-EP1000000.xml'));
    const register = source();
    await Promise.all([register.readLegalEvents(EP1000000), register.readLegalEvents(EP1000000), register.readLegalEvents(EP1000000)]);
    expect(ops.count(TOKEN)).toBe(1);
    expect(ops.count(LEGAL)).toBe(3);
  });

  it('refused credentials are a typed error', async () => {
    ops.route(TOKEN, { status: 401, body: '' });
    await expect(source().readLegalEvents(EP1000000)).rejects.toBeInstanceOf(RegisterUnauthorisedError);
    expect(ops.count(LEGAL)).toBe(0);
  });
});

describe('throttling and quotas', () => {
  const BLACK = 'busy (images=green:100, inpadoc=black:0, other=green:1000, retrieval=green:200, search=green:30)';

  it('429: a typed back-off with Retry-After, no retry, and no call at all until it ends', async () => {
    ops.route(LEGAL, (_r, i) => (i === 0 ? { status: 429, headers: { 'Retry-After': '30', 'X-Throttling-Control': BLACK }, body: '' } : xml('legal-EP1000000.xml')));
    const register = source();
    const error = await register.readLegalEvents(EP1000000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegisterThrottledError);
    expect(error).toMatchObject({ code: 'throttled', retryAfterMs: 30_000 });
    expect(ops.count(LEGAL)).toBe(1);
    expect(register.pacing().services.inpadoc).toEqual({ colour: 'black', perMinute: 0 });
    expect(register.pacing().nextCallAt.getTime()).toBe(clock + 30_000);

    // A caller looping on the error makes no request while the back-off runs.
    for (let i = 0; i < 5; i++) await expect(register.readLegalEvents(EP1000000)).rejects.toBeInstanceOf(RegisterThrottledError);
    expect(ops.count(LEGAL)).toBe(1);

    clock += 30_000;
    await expect(register.readLegalEvents(EP1000000)).resolves.toMatchObject({ found: true });
    expect(ops.count(LEGAL)).toBe(2);
  });

  it('403 fair use with the weekly quota reason: quota exhausted, a day without Retry-After', async () => {
    ops.route(LEGAL, { status: 403, headers: { 'Content-Type': 'application/xml', 'X-Rejection-Reason': 'RegisteredQuotaPerWeek' }, body: fixture('fault-fair-use-403.xml') });
    const error = await source().readLegalEvents(EP1000000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegisterQuotaExhaustedError);
    expect(error).toMatchObject({ code: 'quota_exhausted', quota: 'weekly', retryAfterMs: 24 * 3_600_000, reason: 'RegisteredQuotaPerWeek' });
    expect(ops.count(LEGAL)).toBe(1);
  });

  it('403 fair use with the hourly quota reason: quota exhausted until the next hour', async () => {
    clock += 20 * 60_000; // 09:20
    ops.route(LEGAL, { status: 403, headers: { 'X-Rejection-Reason': 'IndividualQuotaPerHour exceeded' }, body: fixture('fault-fair-use-403.xml') });
    await expect(source().readLegalEvents(EP1000000)).rejects.toMatchObject({ code: 'quota_exhausted', quota: 'hourly', retryAfterMs: 40 * 60_000 });
  });

  it('403 throttled (a black light, Retry-After): a typed back-off with the delay asked', async () => {
    ops.route(STEPS, { status: 403, headers: { 'Retry-After': '120', 'X-Throttling-Control': BLACK.replace('other=green:1000', 'other=black:0') }, body: fixture('fault-fair-use-403.xml') });
    const register = source();
    await expect(register.readEpRegister(EP2400812)).rejects.toMatchObject({ code: 'throttled', retryAfterMs: 120_000 });
    expect(ops.count(STEPS)).toBe(1);
    expect(ops.count(UPP)).toBe(0);
  });

  it('exposes the service colours and the quota used, and a slower pace on yellow', async () => {
    const yellow = 'busy (images=green:100, inpadoc=yellow:60, other=green:1000, retrieval=green:200, search=green:30)';
    ops.route(LEGAL, { ...xml('legal-EP1000000.xml'), headers: { ...RECORDED_HEADERS, 'X-Throttling-Control': yellow } });
    const register = source();
    await register.readLegalEvents(EP1000000);
    const pacing = register.pacing();
    expect(pacing).toMatchObject({ system: 'busy', hourlyUsed: 165630, weeklyUsed: 165630 });
    expect(pacing.services.inpadoc).toEqual({ colour: 'yellow', perMinute: 60 });
    // 60 a minute is one a second; yellow halves it.
    expect(pacing.nextCallAt.getTime()).toBe(clock + 2_000);
  });
});

describe('other failures', () => {
  it('a 5xx is "unavailable", a 400 other than a token fault is a bad request; neither is retried', async () => {
    ops.route(LEGAL, (_r, i) =>
      i === 0 ? { status: 503, body: '<fault xmlns="http://ops.epo.org"><code>SERVER.LimitedServerResources</code></fault>' } : { status: 400, body: '<fault xmlns="http://ops.epo.org"><code>CLIENT.InvalidQuery</code><message>bad</message></fault>' },
    );
    const register = source();
    await expect(register.readLegalEvents(EP1000000)).rejects.toMatchObject({ code: 'unavailable', status: 503 });
    await expect(register.readLegalEvents(EP1000000)).rejects.toBeInstanceOf(RegisterBadRequestError);
    expect(ops.count(LEGAL)).toBe(2);
    expect(ops.count(TOKEN)).toBe(1);
  });

  it('an unreachable service is "unavailable"', async () => {
    const url = ops.url;
    await ops.stop();
    await expect(new OpsRegisterSource({ consumerKey: 'k', consumerSecret: 's', baseUrl: url }).readLegalEvents(EP1000000)).rejects.toBeInstanceOf(RegisterUnavailableError);
  });

  it('an entity declared in a DTD is not expanded: the answer is malformed', async () => {
    const laughs = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><ops:world-patent-data xmlns:ops="http://ops.epo.org"><ops:patent-family>&lol2;</ops:patent-family></ops:world-patent-data>';
    ops.route(LEGAL, { status: 200, body: laughs });
    await expect(source().readLegalEvents(EP1000000)).rejects.toBeInstanceOf(RegisterMalformedAnswerError);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = new Date('2026-11-28T09:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Sat, 28 Nov 2026 09:05:00 GMT', now)).toBe(300_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
  });
});

describe('configuration and numbers', () => {
  it('no credentials, no source', () => {
    expect(createRegisterSource({ ops: undefined })).toBeNull();
    expect(createRegisterSource({ ops: { consumerKey: 'k', consumerSecret: 's', baseUrl: 'https://ops.epo.org' } })).toBeInstanceOf(OpsRegisterSource);
  });

  it('builds OPS input numbers with the engine’s parsers', () => {
    expect(epNumberOf('EP 2 400 812 B1', 'publication')).toEqual({ kind: 'publication', digits: '2400812' });
    expect(epNumberOf('EP16839078.9', 'application')).toEqual({ kind: 'application', digits: '16839078' });
    expect(epNumberOf('EP16839078.1', 'application')).toBeNull(); // wrong check digit
    expect(epNumberOf('FR2950000', 'publication')).toBeNull();
  });
});
