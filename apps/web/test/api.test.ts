import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, apiPath, apiUpload, apiUrl, parseRetryAfter, setApiLanguageProvider } from '../src/lib/api.ts';
import { queryKeys } from '../src/lib/queryKeys.ts';

function respond(status: number, body: unknown, headers: Record<string, string> = {}) {
  return vi.fn(async () => new Response(status === 204 ? null : typeof body === 'string' ? body : JSON.stringify(body), { status, headers }));
}

/** A stand-in XMLHttpRequest: records what is sent, lets the test drive progress and the answer. */
class FakeXhr {
  static last: FakeXhr | undefined;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  withCredentials = false;
  timeout = 0;
  status = 0;
  responseText = '';
  sent: unknown;
  aborted = false;
  upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;
  private responseHeaders: Record<string, string> = {};
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  getResponseHeader(name: string) {
    return this.responseHeaders[name.toLowerCase()] ?? null;
  }
  send(body: unknown) {
    this.sent = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  answer(status: number, body: unknown, headers: Record<string, string> = {}) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.responseHeaders = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    this.onload?.();
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('api', () => {
  it('sends credentials, the API key, the UI language and JSON', async () => {
    const fetchMock = respond(200, { success: true, message: 'ok' });
    vi.stubGlobal('fetch', fetchMock);
    setApiLanguageProvider(() => 'fr');
    await api('/contact', { method: 'POST', body: { a: 1 } });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/contact');
    expect(init.credentials).toBe('include');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"a":1}');
    const headers = init.headers as Record<string, string>;
    expect(headers['x-api-key']).toBe('local-dev-api-key');
    expect(headers['Accept-Language']).toBe('fr');
    expect(headers['Content-Type']).toBe('application/json');
  });

  it('throws ApiError with the server code, message and fields', async () => {
    vi.stubGlobal('fetch', respond(400, { success: false, message: 'Invalid', code: 'validation_failed', fields: { mail: 'wrong_email' } }));
    const error = await api('/contact').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'validation_failed', message: 'Invalid', fields: { mail: 'wrong_email' } });
    expect((error as ApiError).isServerError).toBe(false);
  });

  it('treats success:false with a 200 as a failure', async () => {
    vi.stubGlobal('fetch', respond(200, { success: false, message: 'nope', code: 'login_failed' }));
    await expect(api('/auth/login')).rejects.toMatchObject({ code: 'login_failed', message: 'nope' });
  });

  it('maps network failures and non-JSON 5xx to server errors', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    const network = (await api('/x').catch((e: unknown) => e)) as ApiError;
    expect(network.code).toBe('network_error');
    expect(network.isServerError).toBe(true);

    vi.stubGlobal('fetch', respond(502, '<html>Bad gateway</html>'));
    const gateway = (await api('/x').catch((e: unknown) => e)) as ApiError;
    expect(gateway.status).toBe(502);
    expect(gateway.code).toBe('internal_error');
    expect(gateway.isServerError).toBe(true);
  });

  it('encodes dynamic path segments', () => {
    expect(apiPath`/auth/request_reset_password/${'a+b@x.fr'}`).toBe('/auth/request_reset_password/a%2Bb%40x.fr');
    expect(apiPath`/auth/reset_password/${'t/../x'}/${'id?'}`).toBe('/auth/reset_password/t%2F..%2Fx/id%3F');
  });

  it('answers undefined for a 204 (an empty history) instead of failing', async () => {
    vi.stubGlobal('fetch', respond(204, ''));
    await expect(api('/historique', { query: { page: 1, limit: 20 } })).resolves.toBeUndefined();
  });

  it('reads Retry-After of a 429 and a 503 into the typed error', async () => {
    vi.stubGlobal('fetch', respond(429, { success: false, message: 'Too many requests', code: 'rate_limited' }, { 'Retry-After': '2' }));
    const limited = (await api('/contact', { method: 'POST', body: {} }).catch((e: unknown) => e)) as ApiError;
    expect(limited).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 2 });
    expect(limited.isRateLimited).toBe(true);
    vi.stubGlobal('fetch', respond(503, { success: false, message: 'Down', code: 'service_unavailable' }, { 'Retry-After': '30' }));
    expect(await api('/x').catch((e: unknown) => e)).toMatchObject({ status: 503, retryAfter: 30, isServerError: true });
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10);
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('builds query strings, leaving out empty values', () => {
    expect(apiUrl('/searchHistorique', { search_query: 'a&b é', page: 2, limit: 20, sort: 'office', order: undefined })).toBe(
      '/api/searchHistorique?search_query=a%26b+%C3%A9&page=2&limit=20&sort=office',
    );
    expect(apiUrl('historique', { search_query: '' })).toBe('/api/historique');
  });

  it('uploads with XMLHttpRequest: same headers, progress of the upload, typed errors, cancel', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    setApiLanguageProvider(() => 'fr');
    const progress: number[] = [];
    const form = new FormData();
    const ok = apiUpload<{ success: true; runs: string[] }>('/ledes/file/patent/PAR', form, { onProgress: (p) => progress.push(p.loaded / p.total) });
    const xhr = FakeXhr.last!;
    expect([xhr.method, xhr.url, xhr.withCredentials, xhr.sent]).toEqual(['POST', '/api/ledes/file/patent/PAR', true, form]);
    expect(xhr.headers).toMatchObject({ 'x-api-key': 'local-dev-api-key', 'Accept-Language': 'fr' });
    xhr.upload.onprogress?.({ loaded: 50, total: 200, lengthComputable: true });
    xhr.upload.onprogress?.({ loaded: 200, total: 200, lengthComputable: true });
    xhr.answer(200, { success: true, runs: ['r1'] });
    await expect(ok).resolves.toEqual({ success: true, runs: ['r1'] });
    expect(progress).toEqual([0.25, 1]);

    const refused = apiUpload('/ledes/file/patent/PAR', form);
    FakeXhr.last!.answer(415, { success: false, message: 'Wrong extension', code: 'wrong_extension' });
    await expect(refused).rejects.toMatchObject({ status: 415, code: 'wrong_extension', message: 'Wrong extension' });

    const controller = new AbortController();
    const cancelled = apiUpload('/ledes/file/patent/PAR', form, { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();
    expect(FakeXhr.last!.aborted).toBe(true);
    expect(await cancelled).toMatchObject({ name: 'AbortError' });
  });
});

describe('queryKeys', () => {
  it('nests every history page under one prefix, so one invalidation reaches them all', () => {
    const prefix = queryKeys.ledes.histories();
    const user = queryKeys.ledes.history({ page: 1, limit: 500 });
    const admin = queryKeys.ledes.adminHistory({ owner: 'all', search: '', page: 2, limit: 20, sort: 'office', order: 'asc' });
    expect(user.slice(0, prefix.length)).toEqual(prefix);
    expect(admin.slice(0, prefix.length)).toEqual(prefix);
    expect(admin).toEqual(['ledes', 'history', 'admin', { owner: 'all', search: '', page: 2, limit: 20, sort: 'office', order: 'asc' }]);
  });
});
