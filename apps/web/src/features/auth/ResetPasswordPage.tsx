import { useState } from 'react';
import { Anchor, Button, Group, PasswordInput, Stack, Text, ThemeIcon, Title, Paper } from '@mantine/core';
import { IconClockX } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN_LENGTH, resetPasswordBody } from '@portal/contracts';
import { ApiError } from '../../lib/api.ts';
import { useSchemaForm } from '../../lib/form.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
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

interface ResetValues extends Record<string, unknown> {
  password: string;
  confirm: string;
}

/** Error code → key of `reset`; one message at a time, in the spec's order (empty, mismatch, length). */
const RESET_KEYS: Record<string, string> = {
  password_empty: 'reset.empty',
  required: 'reset.empty',
  not_same_password: 'reset.mismatch',
  password_too_short: 'reset.tooShort',
};

export function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const token = params.get('token') ?? '';
  const [expired, setExpired] = useState(false);

  const check = useQuery({
    queryKey: queryKeys.auth.resetToken(id, token),
    queryFn: () => verifyResetToken(id, token),
    enabled: Boolean(id && token),
    retry: false,
    staleTime: Infinity,
  });

  const { form, onSubmit, showServerErrors, ref } = useSchemaForm<ResetValues, { password: string }>({
    initialValues: { password: '', confirm: '' },
    schema: resetPasswordBody,
    prepare: (v) => ({ password: v.password }),
    // Both fields are required and equal (spec); the length rule comes from the API's schema.
    extraRules: (v) => ({
      password: v.password ? undefined : 'password_empty',
      confirm: !v.confirm ? 'password_empty' : v.password && v.confirm !== v.password ? 'not_same_password' : undefined,
    }),
    firstErrorOf: ['password', 'confirm'],
    translate: (code) => t(RESET_KEYS[code] ?? 'reset.genericError', { count: PASSWORD_MIN_LENGTH }),
  });

  // The first-connection mail's link activates the account: the screen says so ("Choose your password"),
  // the reset link's keeps its title. The server tells which kind of link this is.
  const copy = check.data?.purpose === 'first_connection' ? 'activate' : 'reset';

  const mutation = useMutation({
    mutationFn: (password: string) => resetPassword(token, id, password),
    onSuccess: () => {
      notifySuccess(t(`${copy}.success`));
      window.setTimeout(() => {
        navigate('/login');
      }, TOAST_MS);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.code === 'link_expired') {
        setExpired(true);
        return;
      }
      if (err instanceof ApiError && err.fields.password) {
        showServerErrors({ password: err.fields.password });
        return;
      }
      notifyError(t('reset.errorTitle'), err instanceof ApiError && !err.isServerError && err.message ? err.message : t('reset.genericError'));
    },
  });

  if (check.isPending) return <Loader loading />;
  const valid = check.data?.success === true && check.data.invalid !== true;
  if (!valid || expired) return <Expired />;

  const done = mutation.isSuccess;
  return (
    <AuthCard title={t(`${copy}.title`)} subtitle={t(`${copy}.subtitle`, { count: PASSWORD_MIN_LENGTH })}>
      <form ref={ref} onSubmit={onSubmit((body) => mutation.mutate(body.password))} noValidate>
        <Stack gap="md">
          <PasswordInput
            name="password"
            label={t('reset.newPassword')}
            autoComplete="new-password"
            required
            {...form.getInputProps('password')}
            errorProps={{ 'data-testid': 'reset-error' }}
            visibilityToggleButtonProps={{ 'aria-label': t('togglePassword') }}
          />
          <PasswordInput
            name="confirm"
            label={t('reset.confirmPassword')}
            autoComplete="new-password"
            required
            {...form.getInputProps('confirm')}
            errorProps={{ 'data-testid': 'reset-error' }}
            visibilityToggleButtonProps={{ 'aria-label': t('togglePassword') }}
          />
          {done && (
            <Text c="teal.8" size="sm" role="status" data-testid="reset-success">
              {t(`${copy}.success`)}
            </Text>
          )}
          <Button type="submit" fullWidth size="md" loading={mutation.isPending} disabled={mutation.isPending || done} data-testid="reset-submit">
            {t(`${copy}.submit`)}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
