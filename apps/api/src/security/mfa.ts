import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, randomInt } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { ConfigError, type Config } from '@portal/config';

/**
 * The second factor's primitives (decisions 133–135): TOTP as RFC 6238 says (SHA-1, 6 digits, 30 s,
 * one step either side), its secret encrypted at rest with AES-256-GCM, recovery codes kept as a keyed
 * hash. Nothing here touches the database.
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted either side of the current one (clock drift, a code typed as it turned). */
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
const ISSUER = 'IP Portal';

export interface MfaKeys {
  /** AES-256-GCM key of the TOTP secrets. */
  encryption: Buffer;
  /** HMAC-SHA256 key of the recovery codes, derived from the same configured key. */
  recovery: Buffer;
}

/**
 * The configured key, or outside production the one generated once into DATA_DIR (like the embedded
 * admin password). Production without MFA_ENCRYPTION_KEY is a configuration error: a generated key
 * would differ between API nodes and vanish with the container.
 */
export function resolveMfaKeys(config: Config): MfaKeys {
  let hex = config.mfa.encryptionKey;
  if (!hex) {
    if (config.isProduction) throw new ConfigError(['MFA_ENCRYPTION_KEY: required when NODE_ENV=production (64 hex characters: openssl rand -hex 32)']);
    hex = readOrCreateKeyFile(config.mfa.keyFile);
  }
  const master = Buffer.from(hex, 'hex');
  return {
    encryption: Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), 'portal mfa secret encryption', 32)),
    recovery: Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), 'portal mfa recovery codes', 32)),
  };
}

function readOrCreateKeyFile(file: string): string {
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (!/^[0-9a-f]{64}$/i.test(stored)) throw new ConfigError([`MFA_ENCRYPTION_KEY: ${file} does not hold 64 hexadecimal characters`]);
    return stored;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const hex = randomBytes(32).toString('hex');
  // 'wx': two processes starting at once cannot both write a different key.
  try {
    writeFileSync(file, `${hex}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readOrCreateKeyFile(file);
    throw error;
  }
  return hex;
}

/** `v1.<iv>.<tag>.<ciphertext>` (base64url), the user id bound as associated data: a row copied to another user does not decrypt. */
export function encryptSecret(keys: MfaKeys, userId: string, base32: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys.encryption, iv);
  cipher.setAAD(Buffer.from(userId));
  const body = Buffer.concat([cipher.update(base32, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

export function decryptSecret(keys: MfaKeys, userId: string, stored: string): string {
  const [version, iv, tag, body] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('unknown MFA secret format');
  const decipher = createDecipheriv('aes-256-gcm', keys.encryption, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(userId));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** A new 160-bit secret (RFC 4226's recommended length), base32 as authenticator apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function totp(base32: string, label = ''): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(base32) });
}

/** The time step of a moment (RFC 6238's T). */
export function totpStep(now: Date): number {
  return Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS);
}

/** The step a code belongs to when it is valid within the window at `now`, else null. */
export function matchTotp(base32: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(base32).validate({ token: code, timestamp: now.getTime(), window: TOTP_WINDOW });
  return delta === null ? null : totpStep(now) + delta;
}

export function otpauthUri(base32: string, account: string): string {
  return totp(base32, account).toString();
}

/**
 * The QR code of the otpauth URI as an SVG data URL, drawn server-side so the web bundle carries no QR library. The
 * library is loaded with the first enrolment, not when the API starts.
 */
export async function qrDataUrl(uri: string): Promise<string> {
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** Without 0/o, 1/l/i: a code read off paper is typed right. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten codes of ten characters (about 49 bits each), shown as `xxxxx-xxxxx`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** Case, spaces and dashes do not matter when a recovery code is typed. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

export function looksLikeRecoveryCode(code: string): boolean {
  return /^[a-z0-9]{10}$/.test(normalizeRecoveryCode(code));
}

/** HMAC-SHA256 under a server key: high-entropy codes need no slow hash, and a database leak alone cannot test guesses (decision 135). */
export function hashRecoveryCode(keys: MfaKeys, code: string): string {
  return createHmac('sha256', keys.recovery).update(normalizeRecoveryCode(code)).digest('hex');
}
