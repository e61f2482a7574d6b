import { z } from 'zod';
import { text } from './text.ts';

/** A sign-in that needs the second factor answers this instead of the session: `verify` asks for a code, `enrol` for a first enrolment. */
export const MFA_STEPS = ['verify', 'enrol'] as const;
export type MfaStep = (typeof MFA_STEPS)[number];
/** Minutes a sign-in challenge (the step between the password and the session) lasts. */
export const MFA_CHALLENGE_MINUTES = 5;
/** Wrong codes one challenge takes before it is deleted (the login lockout counts them too). */
export const MFA_CHALLENGE_MAX_FAILURES = 5;

/** A six-digit code from the app, or a recovery code (`xxxxx-xxxxx`); spaces are dropped. */
export const mfaCodeBody = z.strictObject({
  code: text({ error: 'mfa_code_empty' })
    .transform((c) => c.replace(/\s+/g, ''))
    .pipe(z.string().min(1, { error: 'mfa_code_empty' }).max(32, { error: 'mfa_code_invalid' })),
});
export type MfaCodeBody = z.infer<typeof mfaCodeBody>;

export const loginMfaResponse = z.strictObject({ success: z.literal(true), message: z.string(), mfa: z.enum(MFA_STEPS) });
export type LoginMfaResponse = z.infer<typeof loginMfaResponse>;

/** What an authenticator app needs: the QR code (an SVG data URL), the secret as text, and the otpauth URI. */
export const mfaEnrolmentSchema = z.strictObject({ secret: z.string(), otpauth_uri: z.string(), qr: z.string() });
export type MfaEnrolment = z.infer<typeof mfaEnrolmentSchema>;

/** The pending sign-in step; `enrolment` is null when asking for a code, or once the enrolment is confirmed. */
export const mfaChallengeResponse = z.strictObject({ success: z.literal(true), purpose: z.enum(MFA_STEPS), enrolment: mfaEnrolmentSchema.nullable() });
export type MfaChallengeResponse = z.infer<typeof mfaChallengeResponse>;

/** The ten recovery codes, shown once. */
export const mfaRecoveryCodesResponse = z.strictObject({ success: z.literal(true), message: z.string(), recovery_codes: z.array(z.string()) });
export type MfaRecoveryCodesResponse = z.infer<typeof mfaRecoveryCodesResponse>;

export const mfaStatusResponse = z.strictObject({
  success: z.literal(true),
  enabled: z.boolean(),
  /** An admin cannot turn it off. */
  required: z.boolean(),
  recovery_codes_left: z.number().int(),
});
export type MfaStatusResponse = z.infer<typeof mfaStatusResponse>;

export const mfaSetupResponse = z.strictObject({ success: z.literal(true), enrolment: mfaEnrolmentSchema });
export type MfaSetupResponse = z.infer<typeof mfaSetupResponse>;
