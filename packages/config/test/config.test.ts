import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ConfigError, DEV_API_KEY, ENV_VARIABLES, loadConfig } from '../src/index.ts';

const repo = new URL('../../../', import.meta.url);

describe('loadConfig', () => {
  it('gives the embedded mode when nothing is set', () => {
    const config = loadConfig({});
    expect(config.database.driver).toBe('pglite');
    expect(config.storage.driver).toBe('local');
    expect(config.redisUrl).toBeUndefined();
    expect(config.mail.smtpUrl).toBeUndefined();
    expect(config.http.port).toBe(3000);
    expect(config.http.publicUrl).toBe('http://localhost:3000');
    expect(config.security.apiKey).toBe(DEV_API_KEY);
    expect(config.security.cookie).toEqual({ sameSite: 'lax', secure: false, name: 'portal_sid' });
  });

  it('binds loopback by default while the public development API key is in use (embedded), all interfaces in production; HOST overrides both', () => {
    expect(loadConfig({}).http.host).toBe('127.0.0.1');
    expect(loadConfig({ DATABASE_URL: 'postgres://db/portal' }).http.host).toBe('127.0.0.1');
    const production = { NODE_ENV: 'production', API_KEY: 'a-production-key-123', PUBLIC_URL: 'https://portal.example.com' };
    expect(loadConfig(production).http.host).toBe('0.0.0.0');
    expect(loadConfig({ API_KEY: 'a-chosen-key-12345' }).http.host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '0.0.0.0' }).http.host).toBe('0.0.0.0');
    expect(loadConfig({ ...production, HOST: '10.0.0.5' }).http.host).toBe('10.0.0.5');
  });

  it('names every bad variable in one error', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', REDIS_URL: 'redis://r:6379', LOG_LEVEL: 'loud' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toMatch(/PORT:/);
      expect(message).toMatch(/DATABASE_URL:/);
      expect(message).toMatch(/LOG_LEVEL:/);
    }
  });

  // Issue 26: with the stalled check as long as the lock (30 s each), a killed worker's job started
  // again 62-63 s later; the check now runs at a sixth of the lock, and may not exceed half of it.
  it('a killed worker\'s job is taken over within the lock and a sixth of it: the stalled check runs at a sixth of the lock unless set, at most half', () => {
    expect(loadConfig({}).workers).toMatchObject({ lockDurationMs: 30_000, stalledIntervalMs: 5000 });
    expect(loadConfig({ WORKER_LOCK_DURATION_MS: '6000' }).workers).toMatchObject({ lockDurationMs: 6000, stalledIntervalMs: 1000 });
    expect(loadConfig({ WORKER_LOCK_DURATION_MS: '1000' }).workers.stalledIntervalMs).toBe(500);
    expect(loadConfig({ WORKER_STALLED_INTERVAL_MS: '15000' }).workers.stalledIntervalMs).toBe(15_000);
    expect(() => loadConfig({ WORKER_STALLED_INTERVAL_MS: '30000' })).toThrow(/WORKER_STALLED_INTERVAL_MS: must be at most half/);
  });

  it('refuses incomplete S3 settings and Redis without PostgreSQL', () => {
    expect(() => loadConfig({ S3_ENDPOINT: 'http://minio:9000' })).toThrow(/S3_BUCKET: required/);
    expect(() => loadConfig({ REDIS_URL: 'redis://localhost:6379' })).toThrow(/DATABASE_URL: required when REDIS_URL/);
  });

  it('requires an API key and a public URL in production, and makes cookies Secure with the __Host- prefix', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/API_KEY: required/);
    const config = loadConfig({ NODE_ENV: 'production', API_KEY: 'a-production-key-123', PUBLIC_URL: 'https://portal.example.com' });
    expect(config.security.cookie).toEqual({ sameSite: 'lax', secure: true, name: '__Host-portal_sid' });
    expect(config.security.allowedOrigins).toEqual(['https://portal.example.com']);
  });

  it('DATA_DIR defaults to ./data at the repository root whatever the working directory (npm -w starts in apps/api)', () => {
    const before = process.cwd();
    try {
      process.chdir(fileURLToPath(new URL('apps/api/', repo)));
      expect(loadConfig({}).dataDir).toBe(fileURLToPath(new URL('data', repo)));
      // An explicit relative DATA_DIR stays relative to where the command runs, as any path argument.
      expect(loadConfig({ DATA_DIR: 'elsewhere' }).dataDir).toBe(path.resolve('elsewhere'));
    } finally {
      process.chdir(before);
    }
  });

  it('reads the register with OPS credentials only, both or neither (decision 193)', () => {
    expect(loadConfig({}).registers.ops).toBeUndefined();
    expect(() => loadConfig({ OPS_CONSUMER_KEY: 'consumer-key-1' })).toThrow(/OPS_CONSUMER_SECRET: required when OPS_CONSUMER_KEY is set/);
    expect(() => loadConfig({ OPS_CONSUMER_SECRET: 'consumer-secret-1' })).toThrow(/OPS_CONSUMER_KEY: required when OPS_CONSUMER_SECRET is set/);
    expect(loadConfig({ OPS_CONSUMER_KEY: 'consumer-key-1', OPS_CONSUMER_SECRET: 'consumer-secret-1' }).registers.ops).toEqual({
      consumerKey: 'consumer-key-1',
      consumerSecret: 'consumer-secret-1',
      baseUrl: 'https://ops.epo.org',
    });
    expect(loadConfig({ OPS_CONSUMER_KEY: 'consumer-key-1', OPS_CONSUMER_SECRET: 'consumer-secret-1', OPS_BASE_URL: 'http://127.0.0.1:4010/' }).registers.ops?.baseUrl).toBe('http://127.0.0.1:4010');
    expect(() => loadConfig({ OPS_BASE_URL: 'ftp://ops.epo.org' })).toThrow(/OPS_BASE_URL/);
  });

  it('parses the S3 endpoint into host, port and TLS', () => {
    const config = loadConfig({ S3_ENDPOINT: 'https://s3.example.com:9443', S3_BUCKET: 'files', S3_ACCESS_KEY: 'a', S3_SECRET_KEY: 'b' });
    expect(config.storage).toMatchObject({ driver: 's3', endPoint: 's3.example.com', port: 9443, useSSL: true, bucket: 'files' });
  });
});

describe('issue 8 defaults', () => {
  it('the default upload limit takes a 200,000-line LEDES file (30–45 MB), a normal customer file', () => {
    expect(loadConfig({}).uploads.maxBytes).toBeGreaterThanOrEqual(45_000_000);
  });

  it('admin sessions: 30 minutes idle, 12 hours in all, both configurable (SESS-05)', () => {
    expect(loadConfig({}).security.adminSession).toEqual({ idleMs: 30 * 60_000, maxMs: 12 * 3_600_000 });
    expect(loadConfig({ ADMIN_SESSION_IDLE_MINUTES: '15', ADMIN_SESSION_MAX_HOURS: '8' }).security.adminSession).toEqual({ idleMs: 15 * 60_000, maxMs: 8 * 3_600_000 });
  });

  it('second factor: required of admins unless told otherwise; the key is 64 hex characters, kept lower-case; the generated one lives in DATA_DIR', () => {
    const base = loadConfig({ DATA_DIR: '/srv/portal' });
    expect(base.mfa).toEqual({ encryptionKey: undefined, keyFile: path.join('/srv/portal', 'mfa-encryption.key'), requiredForAdmins: true });
    expect(loadConfig({ MFA_REQUIRED_FOR_ADMINS: 'false' }).mfa.requiredForAdmins).toBe(false);
    expect(loadConfig({ MFA_ENCRYPTION_KEY: 'AB'.repeat(32) }).mfa.encryptionKey).toBe('ab'.repeat(32));
    expect(() => loadConfig({ MFA_ENCRYPTION_KEY: 'ab'.repeat(31) })).toThrow(/MFA_ENCRYPTION_KEY/);
    expect(() => loadConfig({ MFA_REQUIRED_FOR_ADMINS: 'maybe' })).toThrow(/MFA_REQUIRED_FOR_ADMINS/);
  });
});

describe('docker-compose.yml against the configuration schema', () => {
  const compose = parse(readFileSync(new URL('docker-compose.yml', repo), 'utf8'), { merge: true }) as {
    services: Record<string, { environment?: Record<string, string>; build?: unknown }>;
  };
  const appServices = Object.entries(compose.services).filter(([, s]) => s.build && s.environment);

  it('has the topology: postgres, redis, minio with bucket creation, api, workers, web proxy', () => {
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(['postgres', 'redis', 'minio', 'minio-init', 'api', 'worker-mail', 'worker-ledes', 'web']));
    const redis = JSON.stringify(compose.services.redis);
    expect(redis).toContain('noeviction');
    expect(redis).toMatch(/appendonly.*yes/);
  });

  it('builds the web image with VITE_API_KEY set to the API key (else the bundle sends the refused development key)', () => {
    const web = compose.services.web as { build?: { args?: Record<string, string> } };
    expect(web.build?.args?.VITE_API_KEY).toBe(compose.services.api!.environment!.API_KEY);
  });

  it('sets only variables the config schema knows', () => {
    for (const [name, service] of appServices) {
      for (const key of Object.keys(service.environment!)) expect(ENV_VARIABLES, `${name}: ${key}`).toContain(key);
    }
  });

  it('sets every variable production requires, and the configuration it gives is valid', () => {
    for (const [name, service] of appServices) {
      // Compose substitutes ${VAR:-default} with the default and stops on ${VAR:?message} when VAR is
      // unset; stand in for the operator with plausible values for the required ones.
      const operator: Record<string, string> = { API_KEY: 'an-operator-chosen-api-key', SMTP_URL: 'smtp://mail.example.com:587', MINIO_ROOT_PASSWORD: 'minio-secret', MFA_ENCRYPTION_KEY: 'ab'.repeat(32) };
      const env = Object.fromEntries(
        Object.entries(service.environment!).map(([k, v]) => [
          k,
          String(v)
            .replace(/\$\{(\w+):-([^}]*)\}/g, (_m, _var, fallback: string) => fallback)
            .replace(/\$\{(\w+):\?[^}]*\}/g, (_m, name: string) => operator[name] ?? `missing-${name}`),
        ]),
      );
      for (const required of ['DATABASE_URL', 'REDIS_URL', 'S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY', 'S3_SECRET_KEY', 'SMTP_URL', 'API_KEY', 'PUBLIC_URL', 'NODE_ENV']) {
        expect(env, `${name} sets ${required}`).toHaveProperty(required);
      }
      expect(() => loadConfig(env), name).not.toThrow();
    }
  });

  it('.env.example documents every variable', () => {
    const example = readFileSync(new URL('.env.example', repo), 'utf8');
    for (const key of ENV_VARIABLES) expect(example, key).toContain(`${key}=`);
  });
});
