import { LOGIN_LOCKOUT_MINUTES } from '@portal/contracts/constants';
import { ApiError } from '../../lib/api.ts';
import { msg, type Message } from '../../lib/message.tsx';

/** A refusal of the second factor's routes as a message of the `mfa` namespace (it follows a language switch). */
export function mfaErrorMessage(error: unknown): Message {
  if (!(error instanceof ApiError) || error.isServerError) return msg('mfa:errors.failed');
  switch (error.fields.code ?? error.code) {
    case 'mfa_code_invalid':
      return msg('mfa:errors.mfa_code_invalid');
    case 'mfa_code_reused':
      return msg('mfa:errors.mfa_code_reused');
    case 'mfa_enrol_code_invalid':
      return msg('mfa:errors.mfa_enrol_code_invalid');
    case 'mfa_code_empty':
      return msg('mfa:errors.mfa_code_empty');
    case 'mfa_challenge_expired':
      return msg('mfa:errors.mfa_challenge_expired');
    case 'mfa_not_enabled':
      return msg('mfa:errors.mfa_not_enabled');
    case 'mfa_required':
      return msg('mfa:errors.mfa_required');
    case 'too_many_attempts':
      return msg('mfa:errors.too_many_attempts', { count: LOGIN_LOCKOUT_MINUTES });
    default:
      return msg('mfa:errors.failed');
  }
}

export const isChallengeExpired = (error: unknown) => error instanceof ApiError && error.code === 'mfa_challenge_expired';
