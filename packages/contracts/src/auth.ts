import { z } from 'zod';
import { LANGUAGES, ROLE_SLUGS } from './roles.ts';
import { text } from './text.ts';
import { EMAIL_PATTERN, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants.ts';

export const emailSchema = text({ error: 'email_empty' })
  .trim()
  .min(1, { error: 'email_empty' })
  .max(254, { error: 'wrong_email' })
  .regex(EMAIL_PATTERN, { error: 'wrong_email' })
  .transform((e) => e.toLowerCase());

export const passwordSchema = text({ error: 'password_empty' })
  .min(1, { error: 'password_empty' })
  .min(PASSWORD_MIN_LENGTH, { error: 'password_too_short' })
  .max(PASSWORD_MAX_LENGTH, { error: 'password_too_long' });

export const loginBody = z.strictObject({
  email: emailSchema,
  // Login accepts any non-empty password up to the maximum: the length policy applies when one is set.
  password: text({ error: 'password_empty' }).min(1, { error: 'password_empty' }).max(PASSWORD_MAX_LENGTH, { error: 'login_failed' }),
  /** A language picked with the switcher before logging in: it wins, and becomes the account's language. */
  langue: z.enum(LANGUAGES).optional(),
});
export type LoginBody = z.infer<typeof loginBody>;

/** Every success answer without data: `{ success: true, message }`, the message translated. */
export const messageResponse = z.strictObject({ success: z.literal(true), message: z.string() });
export type MessageResponse = z.infer<typeof messageResponse>;

export const roleSchema = z.strictObject({ _id: z.uuid(), slug: z.enum(ROLE_SLUGS) });
export type Role = z.infer<typeof roleSchema>;

export const cabinetSchema = z.strictObject({ _id: z.uuid(), name: z.string() });
export type Cabinet = z.infer<typeof cabinetSchema>;

/** What the API ever returns about a user: never a hash, never a token. */
export const publicUserSchema = z.strictObject({
  _id: z.uuid(),
  company_agent: z.string(),
  email: z.string(),
  roles: z.array(roleSchema),
  id_client: z.array(z.string()),
  cabinets: z.array(cabinetSchema),
  code: z.array(z.string()),
  /** The language of the user's mails; the interface's at login only when `langue_chosen`. */
  langue: z.enum(LANGUAGES),
  /** Whether the user picked `langue` themselves: until then the interface follows the browser (decision 154). */
  langue_chosen: z.boolean(),
  /** Whether the user's two-step verification is on (an enrolment confirmed). */
  mfa_enabled: z.boolean(),
  created: z.iso.datetime(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

export const loginResponse = z.strictObject({
  success: z.literal(true),
  message: z.string(),
  roles: z.array(z.enum(ROLE_SLUGS)),
  user: publicUserSchema,
});
export type LoginResponse = z.infer<typeof loginResponse>;

export const verifyTokenResponse = z.strictObject({
  success: z.literal(true),
  isAuthenticated: z.boolean(),
  is_admin: z.boolean(),
  user: publicUserSchema.nullable(),
  roles: z.array(z.enum(ROLE_SLUGS)),
});
export type VerifyTokenResponse = z.infer<typeof verifyTokenResponse>;

export const checkTokenResponse = z.strictObject({ success: z.literal(true), isAuthenticated: z.boolean() });
export type CheckTokenResponse = z.infer<typeof checkTokenResponse>;

/** Reset links carry the user's id (a UUID) and a random token. */
const linkToken = text().min(1).max(128);

export const resetPasswordParams = z.strictObject({
  token: linkToken,
  // A link whose id is not an id is an expired link, as the spec's reset screen words it.
  id: z.uuid({ error: 'link_expired' }),
});
export const resetPasswordBody = z.strictObject({ password: passwordSchema });

/**
 * The reset screen asks whether its link still works: a malformed id is just an invalid link (a
 * normal answer, not an error), so it becomes `null` here and is never looked up.
 */
export const verifyResetQuery = z.strictObject({
  id: z.union([z.uuid(), text().max(64).transform(() => null)]),
  token: linkToken,
});
/** Kinds of single-use password link: a reset asked for, or the first connection (activation) of an invited account. */
export const PASSWORD_LINK_PURPOSES = ['reset', 'first_connection'] as const;
export type PasswordLinkPurpose = (typeof PASSWORD_LINK_PURPOSES)[number];

/** `purpose` tells the screen whether it resets a password or activates an account; null when the link does not work. */
export const verifyResetResponse = z.strictObject({
  success: z.boolean(),
  message: z.string(),
  invalid: z.boolean(),
  purpose: z.enum(PASSWORD_LINK_PURPOSES).nullable(),
});
export type VerifyResetResponse = z.infer<typeof verifyResetResponse>;

export const emailParam = z.strictObject({ email: emailSchema });
export const idParam = z.strictObject({ id: z.uuid() });

export const rolesResponse = z.strictObject({ success: z.literal(true), roles: z.array(roleSchema) });
export type RolesResponse = z.infer<typeof rolesResponse>;
export const roleResponse = z.strictObject({ success: z.literal(true), role: roleSchema });
export const roleSlugsResponse = z.strictObject({ success: z.literal(true), roles: z.array(z.enum(ROLE_SLUGS)) });
