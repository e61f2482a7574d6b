import { useState, type FormEvent } from 'react';
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
import { AuthCard } from '../../components/AuthCard.tsx';

export function LoginPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);

  const mutation = useMutation({
    mutationFn: login,
    onSuccess: async (r) => {
      queryClient.setQueryData(SESSION_KEY, sessionFromLogin(r));
      // The account's language applies at login; an explicit switch afterwards is remembered and wins.
      const lang = languageAfterLogin(currentLanguage(), r.user?.langue);
      if (lang !== currentLanguage()) await switchLanguage(lang);
      navigate(sanitizeRedirect(params.get('redirect')), { replace: true });
    },
    onError: (err) => {
      if (err instanceof ApiError) {
        if (err.isServerError) setError(t('login.serverError'));
        else if (err.code === 'login_failed') setError(err.message || t('login.wrongCredentials'));
        else if (err.code === 'too_many_attempts') setError(err.message || t('login.tooManyAttempts'));
        else setError(err.message || t('login.failed'));
      } else {
        setError(t('login.serverError'));
      }
    },
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!email.trim() || !password) {
      setError(t('login.required'));
      return;
    }
    mutation.mutate({ email: email.trim(), password });
  };

  const loading = mutation.isPending;
  return (
    <AuthCard title={t('login.title')} subtitle={t('login.subtitle')}>
      <form onSubmit={onSubmit} noValidate aria-describedby={error ? 'login-error' : undefined}>
        <Stack gap="md">
          <TextInput
            type="email"
            name="email"
            label={t('login.email')}
            placeholder={t('login.emailPlaceholder')}
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
          />
          <div>
            <PasswordInput
              name="password"
              label={t('login.password')}
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              visibilityToggleButtonProps={{ 'aria-label': t('togglePassword') }}
            />
            <div aria-live="assertive">
              {error && (
                <Group gap={6} mt={8} wrap="nowrap" align="flex-start">
                  <IconAlertCircle size={16} color="var(--mantine-color-red-7)" aria-hidden="true" style={{ flexShrink: 0, marginTop: 2 }} />
                  <Text id="login-error" c="red.7" size="sm" role="alert" data-testid="login-error">
                    {error}
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
