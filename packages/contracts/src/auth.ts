import { z } from 'zod';
import { LANGUAGES, ROLE_SLUGS } from './roles.ts';

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;
export const LOGIN_LOCKOUT_ATTEMPTS = 5;
export const LOGIN_LOCKOUT_MINUTES = 5;
export const RESET_TOKEN_MINUTES = 10;
export const FIRST_CONNECTION_TOKEN_HOURS = 72;
export const SESSION_DAYS = 30;

/** Same pattern as the forgot-password screen: something@something.tld, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const emailSchema = z
  .string({ error: 'email_empty' })
  .trim()
  .min(1, { error: 'email_empty' })
  .max(254, { error: 'wrong_email' })
  .regex(EMAIL_PATTERN, { error: 'wrong_email' })
  .transform((e) => e.toLowerCase());

export const passwordSchema = z
  .string({ error: 'password_empty' })
  .min(1, { error: 'password_empty' })
  .min(PASSWORD_MIN_LENGTH, { error: 'password_too_short' })
  .max(PASSWORD_MAX_LENGTH, { error: 'password_too_long' });

export const loginBody = z.strictObject({
  email: emailSchema,
  // Login accepts any non-empty password up to the maximum: the length policy applies when one is set.
  password: z.string({ error: 'password_empty' }).min(1, { error: 'password_empty' }).max(PASSWORD_MAX_LENGTH, { error: 'login_failed' }),
});
export type LoginBody = z.infer<typeof loginBody>;

export const roleSchema = z.object({ _id: z.string(), slug: z.enum(ROLE_SLUGS) });
export type Role = z.infer<typeof roleSchema>;

export const cabinetSchema = z.object({ _id: z.string(), name: z.string() });
export type Cabinet = z.infer<typeof cabinetSchema>;

/** What the API ever returns about a user: never a hash, never a token. */
export const publicUserSchema = z.object({
  _id: z.string(),
  company_agent: z.string(),
  email: z.string(),
  roles: z.array(roleSchema),
  id_client: z.array(z.string()),
  cabinets: z.array(cabinetSchema),
  code: z.array(z.string()),
  langue: z.enum(LANGUAGES),
  created: z.string(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

export interface LoginResponse {
  success: true;
  message: string;
  roles: string[];
  user: PublicUser;
}

export interface VerifyTokenResponse {
  success: true;
  isAuthenticated: boolean;
  is_admin: boolean;
  user: PublicUser | null;
  roles: string[];
}

export const resetPasswordParams = z.strictObject({
  token: z.string().min(1).max(128),
  id: z.string().min(1).max(64),
});
export const resetPasswordBody = z.strictObject({ password: passwordSchema });

export const verifyResetQuery = z.strictObject({
  id: z.string().min(1).max(64),
  token: z.string().min(1).max(128),
});
export interface VerifyResetResponse {
  success: boolean;
  message: string;
  invalid: boolean;
}

export const emailParam = z.strictObject({ email: z.string().max(254) });
