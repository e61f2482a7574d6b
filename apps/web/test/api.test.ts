import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, apiPath, setApiLanguageProvider } from '../src/lib/api.ts';

function respond(status: number, body: unknown) {
  return vi.fn(async () => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status }));
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
});
