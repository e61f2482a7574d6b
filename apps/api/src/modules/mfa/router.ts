import {
  idParam,
  loginResponse,
  messageResponse,
  mfaChallengeResponse,
  mfaCodeBody,
  mfaRecoveryCodesResponse,
  mfaSetupResponse,
  mfaStatusResponse,
} from '@portal/contracts';
import type { AppContext } from '../../context.ts';
import { defineRoute, type Route } from '../../http/routes.ts';
import { clearChallengeCookie, setSessionCookie, signInClient } from '../../http/session-cookies.ts';
import {
  completeSignInEnrolment,
  confirmForAccount,
  confirmSignInEnrolment,
  describeChallenge,
  disableForAccount,
  mfaStatus,
  resetFactor,
  setupForAccount,
  verifySignIn,
} from './service.ts';

export function mfaRoutes(ctx: AppContext): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/auth/mfa/challenge',
      summary: 'The pending sign-in step (code or enrolment) of the challenge cookie; for an enrolment, the QR code and the secret',
      response: mfaChallengeResponse,
      async handler(_input, { req }) {
        return { success: true, ...(await describeChallenge(ctx, signInClient(ctx, req).challengeToken)) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/auth/mfa/verify',
      summary: 'Answers the sign-in challenge with a code from the app or a recovery code; sets the session cookie',
      body: mfaCodeBody,
      response: loginResponse,
      async handler({ body }, { req, res, t }) {
        const { user, session } = await verifySignIn(ctx, signInClient(ctx, req), body.code);
        clearChallengeCookie(ctx, res);
        setSessionCookie(ctx, res, session);
        return { success: true, message: t('api:login_succeeded'), roles: user.roles.map((r) => r.slug), user };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/auth/mfa/enrol',
      summary: "Confirms an admin's first enrolment with a code; answers the ten recovery codes, shown once",
      body: mfaCodeBody,
      response: mfaRecoveryCodesResponse,
      async handler({ body }, { req, t }) {
        return { success: true, message: t('api:mfa_enrolled'), recovery_codes: await confirmSignInEnrolment(ctx, signInClient(ctx, req), body.code) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/auth/mfa/enrol/complete',
      summary: 'Ends a confirmed enrolment once the recovery codes are saved; sets the session cookie',
      response: loginResponse,
      async handler(_input, { req, res, t }) {
        const { user, session } = await completeSignInEnrolment(ctx, signInClient(ctx, req));
        clearChallengeCookie(ctx, res);
        setSessionCookie(ctx, res, session);
        return { success: true, message: t('api:login_succeeded'), roles: user.roles.map((r) => r.slug), user };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/account/mfa',
      summary: "The caller's second factor: on or off, required or not, recovery codes left",
      response: mfaStatusResponse,
      async handler(_input, http) {
        const actor = http.actor();
        return { success: true, ...(await mfaStatus(ctx, actor.userId, actor.isAdmin)) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/account/mfa/setup',
      summary: 'Starts turning the second factor on: a new secret, its QR code',
      response: mfaSetupResponse,
      async handler(_input, http) {
        const actor = http.actor();
        return { success: true, enrolment: await setupForAccount(ctx, actor.userId, actor.email) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/account/mfa/confirm',
      summary: 'Turns the second factor on with a first code; answers the ten recovery codes, shown once',
      body: mfaCodeBody,
      response: mfaRecoveryCodesResponse,
      async handler({ body }, http) {
        const codes = await confirmForAccount(ctx, http.actor().userId, body.code);
        http.log.info({ event: 'mfa_enrolled', userId: http.actor().userId }, 'second factor enrolled');
        return { success: true, message: http.t('api:mfa_enrolled'), recovery_codes: codes };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/account/mfa/disable',
      summary: 'Turns the second factor off with a current code (not for admins while it is required)',
      body: mfaCodeBody,
      response: messageResponse,
      async handler({ body }, http) {
        await disableForAccount(ctx, { ip: http.req.ip ?? 'unknown', log: http.log }, http.actor(), body.code);
        http.log.info({ event: 'mfa_disabled', userId: http.actor().userId }, 'second factor turned off');
        return { success: true, message: http.t('api:mfa_disabled') };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/admin/user/:id/mfa/reset',
      summary: "Resets a user's second factor and ends their sessions; audited",
      params: idParam,
      response: messageResponse,
      async handler({ params }, http) {
        const actor = http.actor();
        await resetFactor(ctx, actor.userId, params.id);
        http.log.warn({ event: 'mfa_reset', userId: actor.userId, targetId: params.id }, 'second factor reset by an admin');
        return { success: true, message: http.t('api:mfa_reset') };
      },
    }),
  ];
}
