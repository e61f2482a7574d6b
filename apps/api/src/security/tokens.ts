import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes, base64url: used for session cookies and e-mailed links. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Only this digest is ever stored: a database leak gives no usable session or link. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
