import { useRef, useState, type FormEvent } from 'react';
import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api.ts';
import { SESSION_KEY, login, sessionFromLogin } from '../../lib/auth.ts';
import { sanitizeRedirect } from '../../lib/access.ts';
import { currentLanguage, switchLanguage } from '../../lib/i18n.ts';
import { languageAfterLogin } from '../../lib/language.ts';
import { useDescribedBy } from '../../lib/describedBy.ts';
import { AuthCard } from '../../components/AuthCard.tsx';
import { msg, translated, type Message } from '../../lib/message.tsx';
import { LOGIN_LOCKOUT_MINUTES } from '@portal/contracts/constants';

type LoginValues = { email: string; password: string };
type Missing = Partial<Record<keyof LoginValues, true>>;

/** Both fields are required (spec); the rest is the server's answer. */
function missingFields(v: LoginValues): Missing {
  return { ...(v.email.trim() ? {} : { email: true }), ...(v.password ? {} : { password: true }) };
}

export function LoginPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  // A key, not a text: a message already shown follows a language switch.
  const [error, setError] = useState<Message | null>(null);
  // The first screen of a visit: plain state rather than the form library (decision 55), same
  // behaviour — the empty fields are marked, the first takes the focus, the message is announced,
  // and a field stops being marked as soon as it is filled.
  const [values, setValues] = useState<LoginValues>({ email: '', password: '' });
  const [missing, setMissing] = useState<Missing>({});
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  // The fields marked empty are described by the message under them (shared by both).
  useDescribedBy(emailRef, missing.email && error ? 'login-error' : undefined);
  useDescribedBy(passwordRef, missing.password && error ? 'login-error' : undefined);
  const change = (field: keyof LoginValues) => (event: { currentTarget: HTMLInputElement }) => {
    const next = { ...values, [field]: event.currentTarget.value };
    setValues(next);
    if (missing.email || missing.password) {
      const still = missingFields(next);
      setMissing(still);
      if (!still.email && !still.password) setError(null);
    }
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const empty = missingFields(values);
    setMissing(empty);
    if (empty.email || empty.password) {
      setError(msg('auth:login.required'));
      (empty.email ? emailRef : passwordRef).current?.focus();
      return;
    }
    setError(null);
    mutation.mutate({ email: values.email.trim(), password: values.password });
  };

  const mutation = useMutation({
    mutationFn: login,
    onSuccess: async (r) => {
      // A second factor is due: its screen is a lazy route of its own (the redirect goes along).
      if ('mfa' in r) return navigate(`/login/mfa${location.search}`);
      queryClient.setQueryData(SESSION_KEY, sessionFromLogin(r));
      // The account's language applies at login once its user chose it; an explicit switch afterwards is remembered and wins.
      const lang = languageAfterLogin(currentLanguage(), r.user);
      if (lang !== currentLanguage()) await switchLanguage(lang);
      navigate(sanitizeRedirect(params.get('redirect')), { replace: true });
    },
    onError: (err) => {
      if (err instanceof ApiError) {
        if (err.isServerError) setError(msg('auth:login.serverError'));
        else if (err.code === 'login_failed') setError(msg('auth:login.wrongCredentials'));
        else if (err.code === 'too_many_attempts') setError(msg('auth:login.tooManyAttempts', { count: LOGIN_LOCKOUT_MINUTES }));
        else setError(msg('auth:login.failed'));
      } else {
        setError(msg('auth:login.serverError'));
      }
    },
  });

  const loading = mutation.isPending;
  return (
    <AuthCard title={t('login.title')} subtitle={t('login.subtitle')}>
      <form
        onSubmit={submit}
        noValidate
        aria-describedby={error ? 'login-error' : undefined}
      >
        <Stack gap="md">
          <TextInput
            type="email"
            name="email"
            label={t('login.email')}
            placeholder={t('login.emailPlaceholder')}
            autoComplete="username"
            required
            ref={emailRef}
            value={values.email}
            onChange={change('email')}
            error={missing.email}
          />
          <div>
            <PasswordInput
              name="password"
              label={t('login.password')}
              autoComplete="current-password"
              required
              ref={passwordRef}
              value={values.password}
              onChange={change('password')}
              error={missing.password}
              visibilityToggleButtonProps={{ 'aria-label': t('togglePassword') }}
            />
            {/* One announcement: the region is always in the page and speaks its new text; the message itself is not an alert too. */}
            <div aria-live="assertive" aria-atomic="true" data-testid="login-error-region">
              {error && (
                <Group gap={6} mt={8} wrap="nowrap" align="flex-start">
                  <IconAlertCircle size={16} color="var(--mantine-color-red-7)" aria-hidden="true" style={{ flexShrink: 0, marginTop: 2 }} />
                  <Text id="login-error" c="red.7" size="sm" data-testid="login-error">
                    {translated(error)}
                  </Text>
                </Group>
              )}
            </div>
          </div>
          <Group justify="flex-end">
            <Anchor component={Link} to="/forgot_password" size="sm">
              {t('login.forgot')}
            </Anchor>
          </Group>
          <Button type="submit" fullWidth size="md" disabled={loading} loading={loading} data-testid="login-submit">
            {t('login.submit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
