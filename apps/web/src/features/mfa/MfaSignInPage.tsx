import { useState } from 'react';
import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { LoginResponse } from '@portal/contracts';
import { SESSION_KEY, sessionFromLogin } from '../../lib/auth.ts';
import { sanitizeRedirect } from '../../lib/access.ts';
import { currentLanguage, switchLanguage } from '../../lib/i18n.ts';
import { languageAfterLogin } from '../../lib/language.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { AuthCard } from '../../components/AuthCard.tsx';
import { Loader } from '../../components/Loader.tsx';
import { translated } from '../../lib/message.tsx';
import { completeSignInEnrolment, confirmSignInEnrolment, getChallenge, verifyCode } from './api.ts';
import { CodeForm } from './CodeForm.tsx';
import { EnrolPanel } from './EnrolPanel.tsx';
import { RecoveryCodes } from './RecoveryCodes.tsx';
import { isChallengeExpired, mfaErrorMessage } from './errors.ts';

/**
 * /login/mfa: the step after a right password when a second factor is due. A code (or a recovery
 * code) for an enrolled account; for an admin without one, the enrolment, then the recovery codes
 * once, and only then the session.
 */
export function MfaSignInPage() {
  const { t } = useTranslation('mfa');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const challenge = useQuery({ queryKey: queryKeys.mfa.challenge(), queryFn: ({ signal }) => getChallenge(signal), retry: false, staleTime: Infinity, gcTime: 0 });
  const [codes, setCodes] = useState<string[] | null>(null);
  const [expired, setExpired] = useState(false);
  const [finishing, setFinishing] = useState(false);
  const [finishError, setFinishError] = useState<unknown>(null);

  const signedIn = async (r: LoginResponse) => {
    queryClient.setQueryData(SESSION_KEY, sessionFromLogin(r));
    const lang = languageAfterLogin(currentLanguage(), r.user);
    if (lang !== currentLanguage()) await switchLanguage(lang);
    navigate(sanitizeRedirect(params.get('redirect')), { replace: true });
  };
  const fatal = (error: unknown) => {
    if (!isChallengeExpired(error)) return false;
    setExpired(true);
    return true;
  };
  const finish = () => {
    setFinishing(true);
    setFinishError(null);
    completeSignInEnrolment().then(signedIn, (error: unknown) => {
      setFinishing(false);
      if (!fatal(error)) setFinishError(error);
    });
  };

  if (expired || (challenge.isError && isChallengeExpired(challenge.error))) {
    return (
      <AuthCard title={t('signIn.expiredTitle')}>
        <Stack gap="md">
          <Text role="alert" data-testid="mfa-expired">
            {t('errors.mfa_challenge_expired')}
          </Text>
          <Button component={Link} to="/login" replace fullWidth size="md">
            {t('signIn.backToLogin')}
          </Button>
        </Stack>
      </AuthCard>
    );
  }
  if (challenge.isPending) return <Loader loading />;
  if (challenge.isError) {
    return (
      <AuthCard title={t('signIn.title')}>
        <Text c="red.7" role="alert">
          {translated(mfaErrorMessage(challenge.error))}
        </Text>
      </AuthCard>
    );
  }

  const back = (
    <Group justify="center" mt="md">
      <Anchor component={Link} to="/login" replace size="sm">
        {t('signIn.backToLogin')}
      </Anchor>
    </Group>
  );

  if (challenge.data.purpose === 'verify') {
    return (
      <AuthCard title={t('signIn.title')} subtitle={t('signIn.verifySubtitle')}>
        <CodeForm allowRecovery autoFocus submitLabel={t('signIn.submit')} onSubmit={(code) => verifyCode(code).then(signedIn)} onFatal={fatal} testId="mfa-verify-form" />
        {back}
      </AuthCard>
    );
  }

  if (codes) {
    return (
      <AuthCard title={t('signIn.enrolTitle')}>
        <RecoveryCodes codes={codes} onDone={finish} pending={finishing} />
        {finishError !== null && (
          <Text c="red.7" size="sm" mt="sm" role="alert">
            {translated(mfaErrorMessage(finishError))}
          </Text>
        )}
      </AuthCard>
    );
  }

  const { enrolment } = challenge.data;
  if (!enrolment) {
    // Confirmed earlier in this sign-in (the page was reloaded after the codes were shown).
    return (
      <AuthCard title={t('signIn.enrolledTitle')} subtitle={t('signIn.enrolledText')}>
        <Button fullWidth size="md" onClick={finish} loading={finishing} data-testid="mfa-saved">
          {t('signIn.continue')}
        </Button>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('signIn.enrolTitle')} subtitle={t('signIn.enrolSubtitle')}>
      <EnrolPanel enrolment={enrolment} onFatal={fatal} onConfirm={(code) => confirmSignInEnrolment(code).then((r) => setCodes(r.recovery_codes))} />
      {back}
    </AuthCard>
  );
}
