import {
  RegisterBadRequestError,
  RegisterMalformedAnswerError,
  RegisterQuotaExhaustedError,
  RegisterThrottledError,
  RegisterUnauthorisedError,
  RegisterUnavailableError,
} from '../errors.ts';
import type { EpNumber, EpRegisterRecord, LegalEventsRecord, Pacing, RegisterLookup, RegisterSource } from '../types.ts';
import { DEFAULT_XML_LIMITS, type XmlLimits } from '../xml.ts';
import { parseEpRegister, parseFault, parseLegalEvents, readXml } from './parse.ts';
import { PacingState, parseRetryAfter, type OpsService } from './throttling.ts';

export interface OpsOptions {
  readonly consumerKey: string;
  readonly consumerSecret: string;
  /** `https://ops.epo.org` in production; the tests' local server otherwise. */
  readonly baseUrl: string;
  /** Per request (token or data); default 30 s. */
  readonly timeoutMs?: number;
  readonly xmlLimits?: XmlLimits;
  /** The clock, for tests of token expiry and back-off. */
  readonly now?: () => number;
  readonly userAgent?: string;
}

interface Token {
  readonly value: string;
  /** Refreshed a minute before OPS's own expiry (tokens last ~20 minutes). */
  readonly refreshAt: number;
}

/** When OPS gives no Retry-After: a minute for throttling, the next hour for the hourly quota, a day for the weekly one. */
const DEFAULT_BACKOFF_MS = { throttled: 60_000, weekly: 24 * 3_600_000 } as const;
const TOKEN_MARGIN_MS = 60_000;

/** EPO Open Patent Services v3.2 (REST): the register and the INPADOC legal events behind the `RegisterSource` port. */
export class OpsRegisterSource implements RegisterSource {
  readonly id = 'epo-ops';
  private token: Token | null = null;
  private tokenRequest: Promise<Token> | null = null;
  private readonly pacingState = new PacingState();
  private readonly now: () => number;
  private readonly base: string;

  constructor(private readonly options: OpsOptions) {
    this.now = options.now ?? Date.now;
    this.base = options.baseUrl.replace(/\/+$/, '');
  }

  pacing(): Pacing {
    return this.pacingState.snapshot();
  }

  async readEpRegister(number: EpNumber, signal?: AbortSignal): Promise<RegisterLookup<EpRegisterRecord>> {
    const path = `register/${number.kind}/epodoc/EP${checkDigits(number)}`;
    const steps = await this.get(`${path}/procedural-steps`, 'other', signal);
    if (steps === null) return { found: false, number };
    const upp = await this.get(`${path}/upp`, 'other', signal);
    const limits = this.options.xmlLimits ?? DEFAULT_XML_LIMITS;
    return {
      found: true,
      record: parseEpRegister(number, readXml(steps, 'procedural steps', limits), upp === null ? null : readXml(upp, 'unitary patent', limits)),
    };
  }

  async readLegalEvents(number: EpNumber, signal?: AbortSignal): Promise<RegisterLookup<LegalEventsRecord>> {
    const body = await this.get(`legal/${number.kind}/epodoc/EP${checkDigits(number)}`, 'inpadoc', signal);
    if (body === null) return { found: false, number };
    return { found: true, record: parseLegalEvents(number, readXml(body, 'legal events', this.options.xmlLimits ?? DEFAULT_XML_LIMITS)) };
  }

  /** The body of a data call; null for an unknown number. At most one token refresh, never another retry. */
  private async get(path: string, service: OpsService, signal: AbortSignal | undefined): Promise<string | null> {
    const url = `${this.base}/3.2/rest-services/${path}`;
    this.refuseDuringBackOff();
    let response = await this.call(url, service, await this.bearer(signal), signal);
    if (response.status === 400 || response.status === 401) {
      const body = await response.text();
      if (!isTokenFault(response.status, body)) return this.fail(response, body);
      this.token = null;
      response = await this.call(url, service, await this.bearer(signal), signal);
      if (response.status === 400 || response.status === 401) {
        const again = await response.text();
        if (isTokenFault(response.status, again)) throw new RegisterUnauthorisedError('OPS refused a token it had just issued');
        return this.fail(response, again);
      }
    }
    const body = await this.readBody(response);
    if (response.status === 200) return body;
    return this.fail(response, body);
  }

  private async call(url: string, service: OpsService, token: string, signal: AbortSignal | undefined): Promise<Response> {
    this.refuseDuringBackOff();
    this.pacingState.noteCall(service, this.now());
    const response = await this.fetch(url, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/xml' } }, signal);
    this.pacingState.noteAnswer(response.headers);
    return response;
  }

  /** A back-off is running: no request at all (not even for a token), however the caller loops. */
  private refuseDuringBackOff(): void {
    const at = this.now();
    if (at < this.pacingState.blockedUntil) {
      throw new RegisterThrottledError('OPS asked us to wait; not calling before the back-off ends', this.pacingState.blockedUntil - at, 'backoff');
    }
  }

  private async fail(response: Response, body: string): Promise<null> {
    const status = response.status;
    const fault = parseFault(body);
    if (status === 404) {
      if (fault === null || /EntityNotFound|NotFound|Invalid ?Reference/i.test(fault.code)) return null;
      throw new RegisterMalformedAnswerError(`404 with fault ${fault.code}`);
    }
    if (status === 429 || status === 403) this.backOff(response, fault);
    const said = fault ? ` ${fault.code} ${fault.message}` : '';
    if (status === 401) throw new RegisterUnauthorisedError(`OPS answered 401${said}`);
    if (status === 400) throw new RegisterBadRequestError(`OPS refused the request (400${said})`);
    if (status >= 500) throw new RegisterUnavailableError(`OPS answered ${status}${fault ? ` ${fault.code}` : ''}`, status);
    throw new RegisterMalformedAnswerError(`unexpected status ${status}${fault ? ` ${fault.code}` : ''}`);
  }

  /** 429, or 403 for fair use: a typed back-off error, and no call until it ends. Another 403 is a refusal. */
  private backOff(response: Response, fault: ReturnType<typeof parseFault>): never {
    const now = this.now();
    const reason = response.headers.get('x-rejection-reason');
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'), new Date(now));
    const fairUse = /fair use|quota|throttl|rate/i.test(`${reason ?? ''} ${fault?.message ?? ''} ${fault?.code ?? ''}`);
    if (response.status === 403 && !fairUse) {
      throw new RegisterUnauthorisedError(`OPS answered 403${fault ? ` ${fault.code} ${fault.message}` : ''}`);
    }
    let error: RegisterThrottledError | RegisterQuotaExhaustedError;
    if (reason && /IndividualQuotaPerHour/i.test(reason)) {
      const nextHour = Math.ceil((now + 1) / 3_600_000) * 3_600_000 - now;
      error = new RegisterQuotaExhaustedError('OPS hourly quota used up', retryAfter ?? nextHour, 'hourly', reason);
    } else if (reason && /RegisteredQuotaPerWeek|PerWeek/i.test(reason)) {
      error = new RegisterQuotaExhaustedError('OPS weekly quota used up', retryAfter ?? DEFAULT_BACKOFF_MS.weekly, 'weekly', reason);
    } else {
      error = new RegisterThrottledError(`OPS throttled the call (${response.status})`, retryAfter ?? DEFAULT_BACKOFF_MS.throttled, reason);
    }
    this.pacingState.blockedUntil = Math.max(this.pacingState.blockedUntil, now + error.retryAfterMs);
    throw error;
  }

  private async bearer(signal: AbortSignal | undefined): Promise<string> {
    if (this.token && this.now() < this.token.refreshAt) return this.token.value;
    // Concurrent reads share one token request.
    this.tokenRequest ??= this.requestToken(signal).finally(() => {
      this.tokenRequest = null;
    });
    this.token = await this.tokenRequest;
    return this.token.value;
  }

  private async requestToken(signal: AbortSignal | undefined): Promise<Token> {
    const basic = Buffer.from(`${this.options.consumerKey}:${this.options.consumerSecret}`, 'utf8').toString('base64');
    const response = await this.fetch(
      `${this.base}/3.2/auth/accesstoken`,
      { method: 'POST', headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' },
      signal,
    );
    const body = await this.readBody(response);
    if (response.status === 429 || response.status === 403) this.backOff(response, parseFault(body));
    if (response.status === 400 || response.status === 401) throw new RegisterUnauthorisedError(`OPS refused the consumer key and secret (${response.status})`);
    if (response.status !== 200) throw new RegisterUnavailableError(`OPS token request answered ${response.status}`, response.status);
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new RegisterMalformedAnswerError('token answer is not JSON');
    }
    const token = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
    const value = token.access_token;
    const expiresIn = Number(token.expires_in);
    if (typeof value !== 'string' || value === '' || !Number.isFinite(expiresIn) || expiresIn <= 0) {
      throw new RegisterMalformedAnswerError('token answer without access_token or expires_in');
    }
    return { value, refreshAt: this.now() + Math.max(0, expiresIn * 1000 - TOKEN_MARGIN_MS) };
  }

  private async fetch(url: string, init: RequestInit, signal: AbortSignal | undefined): Promise<Response> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 30_000);
    const headers = { 'User-Agent': this.options.userAgent ?? 'ip-portal-register-sync', ...(init.headers as Record<string, string>) };
    try {
      return await fetch(url, { ...init, headers, signal: signal ? AbortSignal.any([signal, timeout]) : timeout, redirect: 'error' });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new RegisterUnavailableError(`OPS unreachable: ${error instanceof Error ? error.message : String(error)}`, null);
    }
  }

  /** The body, refused past the XML limit without reading it all. */
  private async readBody(response: Response): Promise<string> {
    const limit = (this.options.xmlLimits ?? DEFAULT_XML_LIMITS).maxChars;
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > limit * 4) {
      await response.body?.cancel();
      throw new RegisterMalformedAnswerError(`answer of ${declared} bytes is over the limit`);
    }
    if (!response.body) return '';
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      if (text.length > limit) {
        await response.body.cancel().catch(() => undefined);
        throw new RegisterMalformedAnswerError(`answer over ${limit} characters`);
      }
    }
    return text + decoder.decode();
  }
}

function isTokenFault(status: number, body: string): boolean {
  if (status === 401) return true;
  const fault = parseFault(body);
  return fault !== null && /invalid_access_token|access token|InvalidAccessToken|expired/i.test(`${fault.code} ${fault.message}`);
}

/** The digits OPS's epodoc input takes: 8 for an application, 7 for a publication. */
function checkDigits(number: EpNumber): string {
  const expected = number.kind === 'application' ? 8 : 7;
  if (!new RegExp(`^\\d{${expected}}$`).test(number.digits)) throw new TypeError(`an EP ${number.kind} number has ${expected} digits, got "${number.digits}"`);
  return number.digits;
}
