import type {
  LoginResponse,
  MessageResponse,
  MfaChallengeResponse,
  MfaRecoveryCodesResponse,
  MfaSetupResponse,
  MfaStatusResponse,
} from '@portal/contracts';
import { api, apiPath } from '../../lib/api.ts';

export const getChallenge = (signal?: AbortSignal) => api<MfaChallengeResponse>('/auth/mfa/challenge', { signal });
export const verifyCode = (code: string) => api<LoginResponse>('/auth/mfa/verify', { method: 'POST', body: { code } });
export const confirmSignInEnrolment = (code: string) => api<MfaRecoveryCodesResponse>('/auth/mfa/enrol', { method: 'POST', body: { code } });
export const completeSignInEnrolment = () => api<LoginResponse>('/auth/mfa/enrol/complete', { method: 'POST' });

export const getStatus = (signal?: AbortSignal) => api<MfaStatusResponse>('/account/mfa', { signal });
export const setupAccount = () => api<MfaSetupResponse>('/account/mfa/setup', { method: 'POST' });
export const confirmAccount = (code: string) => api<MfaRecoveryCodesResponse>('/account/mfa/confirm', { method: 'POST', body: { code } });
export const disableAccount = (code: string) => api<MessageResponse>('/account/mfa/disable', { method: 'POST', body: { code } });

export const resetUserMfa = (userId: string) => api<MessageResponse>(apiPath`/admin/user/${userId}/mfa/reset`, { method: 'POST' });
