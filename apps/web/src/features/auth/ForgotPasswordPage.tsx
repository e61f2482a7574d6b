import { useState } from 'react';
import { Anchor, Button, Group, Modal, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { EMAIL_PATTERN, RESET_TOKEN_MINUTES } from '@portal/contracts';
import { ApiError } from '../../lib/api.ts';
import { rulesSchema, useSchemaForm } from '../../lib/form.ts';
import { requestResetPassword } from '../../lib/auth.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { AuthCard } from '../../components/AuthCard.tsx';

type ForgotValues = {
  email: string;
};
/** The spec's check before anything is sent: a standard e-mail pattern, else wrong_email. */
const forgotRules = rulesSchema<ForgotValues>({ email: (v) => (EMAIL_PATTERN.test(v.trim()) ? undefined : 'wrong_email') });

export function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { form, onSubmit, showServerErrors, ref } = useSchemaForm<ForgotValues, ForgotValues>({
    initialValues: { email: '' },
    schema: forgotRules,
    // Codes are ours; a refusal from the server comes as its own (translated) sentence.
    translate: (code) => (code === 'wrong_email' ? t('forgot.wrongEmail') : code),
  });

  const mutation = useMutation({
    mutationFn: (address: string) => requestResetPassword(address),
    onError: (err) => {
      const message = err instanceof ApiError && !err.isServerError ? err.message || t('forgot.wrongEmail') : t('login.serverError');
      if (sentTo) notifyError(t('forgot.errorTitle'), message);
      else showServerErrors({ email: message });
    },
  });

  const resend = () => {
    if (!sentTo) {
      notifyError(t('forgot.errorTitle'));
      return;
    }
    mutation.mutate(sentTo, { onSuccess: () => notifySuccess(t('forgot.resent')) });
  };

  return (
    <AuthCard title={t('forgot.title')} subtitle={t('forgot.subtitle', { count: RESET_TOKEN_MINUTES })}>
      <form ref={ref} onSubmit={onSubmit((body) => {
          const value = body.email.trim();
          mutation.mutate(value, { onSuccess: () => setSentTo(value) });
        })} noValidate>
        <Stack gap="md">
          <TextInput
            type="email"
            name="email"
            label={t('forgot.email')}
            placeholder={t('login.emailPlaceholder')}
            autoComplete="email"
            required
            {...form.getInputProps('email')}
            errorProps={{ 'data-testid': 'forgot-error' }}
          />
          <Button type="submit" fullWidth size="md" loading={mutation.isPending} disabled={mutation.isPending} data-testid="forgot-submit">
            {t('forgot.submit')}
          </Button>
          <Group justify="center">
            <Anchor component={Link} to="/login" size="sm">
              {t('forgot.backToLogin')}
            </Anchor>
          </Group>
        </Stack>
      </form>

      <Modal opened={sentTo !== null} onClose={() => {
          navigate('/login');
        }} title={t('forgot.sentTitle')} centered radius="lg">
        <Stack gap="md">
          <Group gap="md" wrap="nowrap" align="flex-start">
            <ThemeIcon size={44} radius="xl" variant="light" color="teal">
              <IconMailCheck size={24} aria-hidden="true" />
            </ThemeIcon>
            <Text size="sm" data-testid="forgot-sent">
              {t('forgot.sentText', { email: sentTo ?? '', count: RESET_TOKEN_MINUTES })}
            </Text>
          </Group>
          <Group justify="space-between">
            <Anchor component="button" type="button" size="sm" onClick={resend} disabled={mutation.isPending}>
              {t('forgot.resend')}
            </Anchor>
            <Button data-autofocus onClick={() => {
                navigate('/login');
              }}>{t('forgot.close')}</Button>
          </Group>
        </Stack>
      </Modal>
    </AuthCard>
  );
}
