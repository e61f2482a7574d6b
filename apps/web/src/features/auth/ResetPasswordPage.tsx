import { useState, type FormEvent } from 'react';
import { Anchor, Button, Group, PasswordInput, Stack, Text, ThemeIcon, Title, Paper } from '@mantine/core';
import { IconClockX } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN_LENGTH } from '@portal/contracts';
import { ApiError } from '../../lib/api.ts';
import { resetPassword, verifyResetToken } from '../../lib/auth.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { AuthCard } from '../../components/AuthCard.tsx';
import { Loader } from '../../components/Loader.tsx';
import { TOAST_MS } from '../../app/theme.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';

function Expired() {
  const { t } = useTranslation('auth');
  usePageTitle(t('reset.expired'));
  return (
    <Stack align="center" gap="md" py="xl">
      <Paper withBorder p="xl" maw={460} w="100%" ta="center">
        <Stack align="center" gap="md">
          <ThemeIcon size={56} radius="xl" color="orange" variant="light">
            <IconClockX size={30} aria-hidden="true" />
          </ThemeIcon>
          <Title order={1} size="h2" data-testid="reset-expired">
            {t('reset.expired')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('reset.expiredHint')}
          </Text>
          <Group gap="lg" justify="center">
            <Anchor component={Link} to="/forgot_password">
              {t('reset.requestNew')}
            </Anchor>
            <Anchor component={Link} to="/login">
              {t('reset.backToLogin')}
            </Anchor>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}

export function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [expired, setExpired] = useState(false);

  const check = useQuery({
    queryKey: ['reset-token', id, token],
    queryFn: () => verifyResetToken(id, token),
    enabled: Boolean(id && token),
    retry: false,
    staleTime: Infinity,
  });

  const mutation = useMutation({
    mutationFn: () => resetPassword(token, id, password),
    onSuccess: () => {
      notifySuccess(t('reset.success'));
      window.setTimeout(() => {
        navigate('/login');
      }, TOAST_MS);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.code === 'link_expired') {
        setExpired(true);
        return;
      }
      let message = t('reset.genericError');
      if (err instanceof ApiError && !err.isServerError) {
        const field = err.fields.password ?? err.code;
        if (field === 'password_too_short') message = t('reset.tooShort', { min: PASSWORD_MIN_LENGTH });
        else if (field === 'password_empty') message = t('reset.empty');
        else if (err.message) message = err.message;
      }
      setError(message);
      notifyError(t('reset.errorTitle'), message);
    },
  });

  if (check.isPending) return <Loader loading />;
  const valid = check.data?.success === true && check.data.invalid !== true;
  if (!valid || expired) return <Expired />;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!password || !confirm) return setError(t('reset.empty'));
    if (password !== confirm) return setError(t('reset.mismatch'));
    if (password.length < PASSWORD_MIN_LENGTH) return setError(t('reset.tooShort', { min: PASSWORD_MIN_LENGTH }));
    setError(null);
    mutation.mutate();
  };

  const done = mutation.isSuccess;
  return (
    <AuthCard title={t('reset.title')} subtitle={t('reset.subtitle', { min: PASSWORD_MIN_LENGTH })}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <PasswordInput
            name="password"
            label={t('reset.newPassword')}
            autoComplete="new-password"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            visibilityToggleButtonProps={{ 'aria-label': t('togglePassword') }}
          />
          <PasswordInput
            name="confirm"
            label={t('reset.confirmPassword')}
            autoComplete="new-password"
            required
            value={confirm}
            onChange={(e) => setConfirm(e.currentTarget.value)}
            visibilityToggleButtonProps={{ 'aria-label': t('togglePassword') }}
            error={error}
            errorProps={{ role: 'alert', 'data-testid': 'reset-error' }}
          />
          {done && (
            <Text c="teal.8" size="sm" role="status" data-testid="reset-success">
              {t('reset.success')}
            </Text>
          )}
          <Button type="submit" fullWidth size="md" loading={mutation.isPending} disabled={mutation.isPending || done} data-testid="reset-submit">
            {t('reset.submit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
