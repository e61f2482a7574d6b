import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig, type Config } from '@portal/config';
import { roles, userRoles, users } from '@portal/db';
import { createScratchDatabase, testDatabaseBaseUrl, testDatabaseKinds, testPgliteConfig } from '@portal/db/testing';
import { createLogger } from '@portal/logger';
import type { RoleSlug } from '@portal/contracts';
import { createPortal, type Portal } from '../../src/bootstrap.ts';
import type { Clock } from '../../src/clock.ts';
import { hashPassword } from '../../src/security/passwords.ts';
import { eq } from 'drizzle-orm';
import { multipart, type MultipartFile } from './multipart.ts';

export type DatabaseKind = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL points at a server (CI does). */
export function databaseKinds(): DatabaseKind[] {
  return testDatabaseKinds();
}

export class FakeClock implements Clock {
  constructor(private current = new Date()) {}
  now() {
    return new Date(this.current);
  }
  advance(ms: number) {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export interface TestPortal {
  portal: Portal;
  url: string;
  origin: string;
  config: Config;
  dataDir: string;
  clock: FakeClock;
  logs: string[];
  client(options?: { origin?: string | null; apiKey?: string | null; lang?: string }): TestClient;
  createUser(role: RoleSlug, overrides?: { email?: string; password?: string; idClient?: string[]; langue?: 'en' | 'fr' }): Promise<{ id: string; email: string; password: string }>;
  loginAs(role: RoleSlug, overrides?: { idClient?: string[] }): Promise<{ client: TestClient; id: string; email: string; password: string }>;
  outbox(): Array<{ file: string; raw: string }>;
  drainQueue(): Promise<void>;
  close(): Promise<void>;
}

let userCounter = 0;

export async function startTestPortal(kind: DatabaseKind = 'pglite', env: Record<string, string> = {}): Promise<TestPortal> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-test-'));
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  if (kind === 'postgres') scratch = await createScratchDatabase(testDatabaseBaseUrl()!);
  const base = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATA_DIR: dataDir,
    PORT: '3000',
    SERVE_WEB: 'false',
    ADMIN_EMAIL: 'admin@portal.test',
    ADMIN_PASSWORD: 'admin-password-for-tests',
    // Admins sign in with the password alone in tests not about the second factor (decision 137);
    // the MFA tests pass MFA_REQUIRED_FOR_ADMINS: 'true'.
    MFA_REQUIRED_FOR_ADMINS: 'false',
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    ...env,
  });
  // In memory, but on its own thread as `npm start` runs it (decision 180).
  const config: Config = kind === 'pglite' ? { ...base, database: { ...testPgliteConfig(), thread: true } } : base;
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const clock = new FakeClock();
  const portal = await createPortal(config, { clock, logger: createLogger({ level: 'info', name: 'api-test' }, sink) });
  const url = await portal.listen(0);
  // Requests come from the configured public origin, as a browser on the portal would send them.
  const origin = config.security.allowedOrigins[0]!;

  const harness: TestPortal = {
    portal,
    url,
    origin,
    config,
    dataDir,
    clock,
    logs,
    client: (options) => new TestClient(url, { origin: options?.origin === undefined ? origin : options.origin, apiKey: options?.apiKey === undefined ? config.security.apiKey : options.apiKey, lang: options?.lang }),
    async createUser(role, overrides = {}) {
      userCounter += 1;
      const email = overrides.email ?? `${role.replaceAll('_', '.')}.${userCounter}.${Date.now()}@portal.test`;
      const password = overrides.password ?? `password-${role}-${userCounter}`;
      const [roleRow] = await portal.ctx.db.select().from(roles).where(eq(roles.slug, role));
      const [user] = await portal.ctx.db
        .insert(users)
        .values({ companyAgent: `Test ${role} ${userCounter}`, email, passwordHash: await hashPassword(password), idClient: overrides.idClient ?? [], langue: overrides.langue ?? 'en' })
        .returning({ id: users.id });
      await portal.ctx.db.insert(userRoles).values({ userId: user!.id, roleId: roleRow!.id });
      return { id: user!.id, email, password };
    },
    async loginAs(role, overrides = {}) {
      const user = await harness.createUser(role, overrides);
      const client = harness.client();
      const res = await client.post('/api/auth/login', { email: user.email, password: user.password });
      if (res.status !== 200) throw new Error(`login as ${role} failed: ${res.status} ${JSON.stringify(res.body)}`);
      return { client, ...user };
    },
    outbox() {
      const dir = config.mail.outboxDir;
      let files: string[];
      try {
        files = readdirSync(dir).filter((f) => f.endsWith('.eml')).sort();
      } catch {
        return [];
      }
      return files.map((file) => ({ file, raw: readFileSync(path.join(dir, file), 'utf8') }));
    },
    async drainQueue() {
      await portal.ctx.deferred.settled();
      const queue = portal.ctx.queue as { drain?: () => Promise<void> };
      await queue.drain?.();
    },
    async close() {
      await portal.close();
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A browser-like HTTP client: keeps cookies, sends the API key and the portal's Origin unless told otherwise. */
export class TestClient {
  readonly cookies = new Map<string, string>();
  constructor(
    private readonly baseUrl: string,
    private readonly options: { origin: string | null; apiKey: string | null; lang?: string },
  ) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request<T = any>(method: string, pathname: string, body?: unknown, headers: Record<string, string> = {}): Promise<TestResponse<T>> {
    const h: Record<string, string> = { ...headers };
    if (this.options.apiKey !== null && !('x-api-key' in h)) h['x-api-key'] = this.options.apiKey;
    if (this.options.origin !== null && !('origin' in h)) h.origin = this.options.origin;
    if (this.options.lang && !('accept-language' in h)) h['accept-language'] = this.options.lang;
    if (this.cookies.size > 0) h.cookie = this.cookieHeader();
    let payload: string | Buffer | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
      h['content-type'] ??= 'application/json';
    }
    const res = await fetch(this.baseUrl + pathname, { method, headers: h, body: payload, redirect: 'manual' });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const [name = '', ...rest] = pair.split('=');
      const value = rest.join('=');
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(cookie)) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  }
  get<T = any>(p: string, headers?: Record<string, string>) {
    return this.request<T>('GET', p, undefined, headers);
  }
  post<T = any>(p: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', p, body, headers);
  }
  put<T = any>(p: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PUT', p, body, headers);
  }
  /** A form with files, posted as a browser's FormData is (multipart/form-data). */
  upload<T = any>(p: string, files: MultipartFile[], fields: Record<string, string> = {}, headers: Record<string, string> = {}) {
    const { body, contentType } = multipart(fields, files);
    return this.request<T>('POST', p, body, { ...headers, 'content-type': contentType });
  }
}

