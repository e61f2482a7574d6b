import type { ErrorCode, ErrorEnvelope } from '@portal/contracts';

/**
 * The one HTTP client of the web app: every feature's api.ts calls `api` (JSON), `apiUpload`
 * (multipart with upload progress) or `apiDownload` (a blob). All three send the same headers and
 * throw the same typed `ApiError` built from the spec's envelope `{ success: false, message, code }`.
 */

/** The API key sent with every call; the real value comes from the build environment. */
export const API_KEY: string = (import.meta.env.VITE_API_KEY as string | undefined) ?? 'local-dev-api-key';
export const API_BASE = '/api';

/** Code used locally when the server could not be reached, did not answer in time or not with the JSON envelope. */
export type ClientErrorCode = ErrorCode | 'network_error' | 'bad_response' | 'timeout';

export class ApiError extends Error {
  readonly status: number;
  readonly code: ClientErrorCode;
  readonly fields: Record<string, string>;
  /** Seconds to wait before trying again (Retry-After of a 429 or 503), when the server said. */
  readonly retryAfter: number | undefined;
  /** `instructions_refused` (409): the refused rows of a bulk instruction update and why. */
  readonly notUpdated: NonNullable<ErrorEnvelope['not_updated']>;

  constructor(opts: {
    status: number;
    code: ClientErrorCode;
    message: string;
    fields?: Record<string, string> | undefined;
    retryAfter?: number | undefined;
    notUpdated?: ErrorEnvelope['not_updated'];
  }) {
    super(opts.message);
    this.name = 'ApiError';
    this.status = opts.status;
    this.code = opts.code;
    this.fields = opts.fields ?? {};
    this.retryAfter = opts.retryAfter;
    this.notUpdated = opts.notUpdated ?? [];
  }

  /** No answer, or a server-side failure: the screens show their generic "server error" text. */
  get isServerError(): boolean {
    return this.status === 0 || this.status >= 500;
  }

  /** Refused for its rate (429): the caller may say when to try again. */
  get isRateLimited(): boolean {
    return this.status === 429;
  }
}

let languageProvider: () => string = () => 'en';
/** The i18n module registers the current UI language so the server answers in it. */
export function setApiLanguageProvider(fn: () => string): void {
  languageProvider = fn;
}

/** Query-string values; undefined and '' are left out. */
export type QueryParams = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  body?: unknown;
  query?: QueryParams;
  signal?: AbortSignal | undefined;
}

/** Any answer as first read: a success flag, or the error envelope's fields (untrusted until checked). */
type Envelope = { success?: boolean } & Partial<Omit<ErrorEnvelope, 'success'>>;

/** Builds a path below /api, encoding each dynamic segment. */
export function apiPath(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  let out = '';
  strings.forEach((s, i) => {
    out += s;
    if (i < values.length) out += encodeURIComponent(String(values[i]));
  });
  return out;
}

/** `/api` + path + query string. */
export function apiUrl(path: string, query?: QueryParams): string {
  const url = `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') search.set(key, String(value));
  const qs = search.toString();
  return qs ? `${url}${url.includes('?') ? '&' : '?'}${qs}` : url;
}

function baseHeaders(): Record<string, string> {
  return { Accept: 'application/json', 'x-api-key': API_KEY, 'Accept-Language': languageProvider() };
}

/** Retry-After as seconds (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

function parseEnvelope(text: string): Envelope | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' ? (value) : undefined;
  } catch {
    return undefined;
  }
}

/** The typed error of a failed answer: the envelope's code and message, or a code chosen from the status. */
export function errorFromResponse(status: number, payload: Envelope | undefined, retryAfterHeader: string | null): ApiError {
  const fallbackCode: ClientErrorCode = status >= 500 ? 'internal_error' : payload ? 'validation_failed' : 'bad_response';
  const retryAfter = status === 429 || status === 503 ? parseRetryAfter(retryAfterHeader) : undefined;
  return new ApiError({
    status,
    code: (typeof payload?.code === 'string' ? (payload.code) : undefined) ?? fallbackCode,
    message: typeof payload?.message === 'string' ? payload.message : '',
    fields: payload?.fields,
    retryAfter,
    notUpdated: Array.isArray(payload?.not_updated) ? payload.not_updated : undefined,
  });
}

function isAbort(cause: unknown): boolean {
  return cause instanceof DOMException && cause.name === 'AbortError';
}

/**
 * Typed fetch wrapper: JSON in and out, cookies, API key and language headers; throws ApiError on
 * failure. A 204 answers undefined: type such calls `api<X | undefined>`.
 */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, signal, query } = options;
  const headers = baseHeaders();
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(apiUrl(path, query), {
      method,
      headers,
      credentials: 'include',
      body: body === undefined ? null : JSON.stringify(body),
      signal: signal ?? null,
    });
  } catch (cause) {
    if (isAbort(cause)) throw cause;
    throw new ApiError({ status: 0, code: 'network_error', message: '' });
  }

  if (response.status === 204) return undefined as T;
  const payload = parseEnvelope(await response.text());
  if (!response.ok || !payload || payload.success === false) throw errorFromResponse(response.status, payload, response.headers.get('Retry-After'));
  return payload as T;
}

/** A request through fetch that answers the raw Response (blobs); failures become ApiError. */
export async function apiDownload(
  path: string,
  options: { method?: 'GET' | 'POST'; body?: unknown; query?: QueryParams; signal?: AbortSignal } = {},
): Promise<{ blob: Blob; headers: Headers }> {
  const { method = 'POST', body, query, signal } = options;
  let response: Response;
  try {
    response = await fetch(apiUrl(path, query), {
      method,
      headers: { ...baseHeaders(), Accept: '*/*', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      credentials: 'include',
      body: body === undefined ? null : JSON.stringify(body),
      signal: signal ?? null,
    });
  } catch (cause) {
    if (isAbort(cause)) throw cause;
    throw new ApiError({ status: 0, code: 'network_error', message: '' });
  }
  if (!response.ok) throw errorFromResponse(response.status, parseEnvelope(await response.text()), response.headers.get('Retry-After'));
  return { blob: await response.blob(), headers: response.headers };
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface UploadOptions {
  query?: QueryParams;
  signal?: AbortSignal | undefined;
  /** Bytes of the request body sent so far (XMLHttpRequest upload events; fetch cannot report them). */
  onProgress?: (progress: UploadProgress) => void;
  /** Gives up with ApiError code 'timeout' after this long. */
  timeoutMs?: number;
}

/**
 * POSTs a multipart form with XMLHttpRequest, for its upload progress events; answers the JSON
 * body like `api`. Aborting the signal cancels the transfer and rejects with an AbortError.
 */
export function apiUpload<T>(path: string, form: FormData, options: UploadOptions = {}): Promise<T> {
  const { signal, onProgress, timeoutMs, query } = options;
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(new DOMException('Aborted', 'AbortError'));
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl(path, query));
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries(baseHeaders())) xhr.setRequestHeader(name, value);
    if (timeoutMs) xhr.timeout = timeoutMs;
    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => signal?.removeEventListener('abort', onAbort);
    if (onProgress) {
      xhr.upload.onprogress = (e) => onProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : 0 });
    }
    xhr.onload = () => {
      done();
      const payload = parseEnvelope(xhr.responseText);
      if (xhr.status < 200 || xhr.status >= 300 || !payload || payload.success === false) {
        reject(errorFromResponse(xhr.status, payload, xhr.getResponseHeader('Retry-After')));
        return;
      }
      resolve(payload as T);
    };
    xhr.onerror = () => {
      done();
      reject(new ApiError({ status: 0, code: 'network_error', message: '' }));
    };
    xhr.ontimeout = () => {
      done();
      reject(new ApiError({ status: 0, code: 'timeout', message: '' }));
    };
    xhr.onabort = () => {
      done();
      reject(new DOMException('Aborted', 'AbortError'));
    };
    xhr.send(form);
  });
}
