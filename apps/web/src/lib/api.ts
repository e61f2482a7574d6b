import type { ErrorCode, ErrorEnvelope } from '@portal/contracts';

/** The API key sent with every call; the real value comes from the build environment. */
export const API_KEY: string = (import.meta.env.VITE_API_KEY as string | undefined) ?? 'local-dev-api-key';
export const API_BASE = '/api';

/** Code used locally when the server could not be reached or did not answer with the JSON envelope. */
export type ClientErrorCode = ErrorCode | 'network_error' | 'bad_response';

export class ApiError extends Error {
  readonly status: number;
  readonly code: ClientErrorCode;
  readonly fields: Record<string, string>;

  constructor(opts: { status: number; code: ClientErrorCode; message: string; fields?: Record<string, string> | undefined }) {
    super(opts.message);
    this.name = 'ApiError';
    this.status = opts.status;
    this.code = opts.code;
    this.fields = opts.fields ?? {};
  }

  /** No answer, or a server-side failure: the screens show their generic "server error" text. */
  get isServerError(): boolean {
    return this.status === 0 || this.status >= 500;
  }
}

let languageProvider: () => string = () => 'en';
/** The i18n module registers the current UI language so the server answers in it. */
export function setApiLanguageProvider(fn: () => string): void {
  languageProvider = fn;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  body?: unknown;
  signal?: AbortSignal;
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

/** Typed fetch wrapper: JSON in and out, cookies, API key and language headers; throws ApiError on failure. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, signal } = options;
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'x-api-key': API_KEY,
    'Accept-Language': languageProvider(),
  };
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path.startsWith('/') ? path : `/${path}`}`, {
      method,
      headers,
      credentials: 'include',
      body: body === undefined ? null : JSON.stringify(body),
      signal: signal ?? null,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError({ status: 0, code: 'network_error', message: '' });
  }

  let payload: Envelope | undefined;
  const text = await response.text();
  if (text) {
    try {
      payload = JSON.parse(text) as Envelope;
    } catch {
      payload = undefined;
    }
  }

  if (!response.ok || !payload || payload.success === false) {
    const fallbackCode: ClientErrorCode = response.status >= 500 ? 'internal_error' : payload ? 'validation_failed' : 'bad_response';
    throw new ApiError({
      status: response.status,
      code: (payload?.code as ClientErrorCode | undefined) ?? fallbackCode,
      message: typeof payload?.message === 'string' ? payload.message : '',
      fields: payload?.fields,
    });
  }
  return payload as T;
}
