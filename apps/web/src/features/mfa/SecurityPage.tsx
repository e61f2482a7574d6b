import { useState } from 'react';
import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconShieldCheck, IconShieldOff } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MfaEnrolment } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Loader } from '../../components/Loader.tsx';
import { queryKeys } from '../../lib/queryKeys.ts';
import { msg, translated, type Message } from '../../lib/message.tsx';
import { notifySuccess } from '../../lib/notify.ts';
import { confirmAccount, disableAccount, getStatus, setupAccount } from './api.ts';
import { CodeForm } from './CodeForm.tsx';
import { EnrolPanel } from './EnrolPanel.tsx';
import { RecoveryCodes } from './RecoveryCodes.tsx';
import { mfaErrorMessage } from './errors.ts';

type Stage = { kind: 'idle' } | { kind: 'enrolling'; enrolment: MfaEnrolment } | { kind: 'codes'; codes: string[] } | { kind: 'disabling' };

/** /account/security: one's own two-step verification, optional except for admins. */
export function SecurityPage() {
  const { t } = useTranslation('mfa');
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: queryKeys.mfa.status(), queryFn: ({ signal }) => getStatus(signal) });
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<Message | null>(null);

  const start = () => {
    setStarting(true);
    setError(null);
    setupAccount().then(
      (r) => {
        setStarting(false);
        setStage({ kind: 'enrolling', enrolment: r.enrolment });
      },
      (err: unknown) => {
        setStarting(false);
        setError(mfaErrorMessage(err));
      },
    );
  };

  let body;
  if (status.isPending) body = <Loader loading />;
  else if (status.isError) body = <Text c="red.7" role="alert">{t('security.loadError')}</Text>;
  else if (stage.kind === 'enrolling') {
    body = (
      <Stack gap="md">
        <EnrolPanel enrolment={stage.enrolment} onConfirm={(code) => confirmAccount(code).then((r) => setStage({ kind: 'codes', codes: r.recovery_codes }))} />
        <Button variant="subtle" onClick={() => setStage({ kind: 'idle' })}>
          {t('security.cancel')}
        </Button>
      </Stack>
    );
  } else if (stage.kind === 'codes') {
    body = (
      <RecoveryCodes
        codes={stage.codes}
        onDone={() => {
          setStage({ kind: 'idle' });
          notifySuccess(msg('mfa:security.enabled'));
          queryClient.invalidateQueries({ queryKey: queryKeys.mfa.status() }).catch(() => undefined);
        }}
      />
    );
  } else {
    const { enabled, required, recovery_codes_left } = status.data;
    body = (
      <Stack gap="md">
        <Group gap="sm">
          {enabled ? <IconShieldCheck size={22} color="var(--mantine-color-teal-7)" aria-hidden="true" /> : <IconShieldOff size={22} color="var(--mantine-color-gray-6)" aria-hidden="true" />}
          <Badge color={enabled ? 'teal' : 'gray'} variant="light" size="lg" data-testid="mfa-status">
            {enabled ? t('security.on') : t('security.off')}
          </Badge>
          {enabled && (
            <Text size="sm" c="dimmed">
              {t('security.codesLeft', { count: recovery_codes_left })}
            </Text>
          )}
        </Group>
        {required && <Text size="sm">{t('security.required')}</Text>}
        {!enabled && (
          <Group>
            <Button onClick={start} loading={starting} data-testid="mfa-enable">
              {t('security.enable')}
            </Button>
          </Group>
        )}
        {enabled && !required && stage.kind === 'idle' && (
          <Group>
            <Button variant="light" color="red" onClick={() => setStage({ kind: 'disabling' })} data-testid="mfa-disable">
              {t('security.disable')}
            </Button>
          </Group>
        )}
        {enabled && !required && stage.kind === 'disabling' && (
          <Stack gap="sm" maw={420}>
            <Text size="sm">{t('security.disableHint')}</Text>
            <CodeForm
              allowRecovery
              autoFocus
              submitLabel={t('security.disable')}
              testId="mfa-disable-form"
              onSubmit={(code) =>
                disableAccount(code).then(async () => {
                  setStage({ kind: 'idle' });
                  notifySuccess(msg('mfa:security.disabled'));
                  await queryClient.invalidateQueries({ queryKey: queryKeys.mfa.status() });
                })
              }
            />
            <Button variant="subtle" onClick={() => setStage({ kind: 'idle' })}>
              {t('security.cancel')}
            </Button>
          </Stack>
        )}
        {error && (
          <Text c="red.7" size="sm" role="alert">
            {translated(error)}
          </Text>
        )}
      </Stack>
    );
  }

  return (
    <Stack gap="lg" maw={720}>
      <PageHeader title={t('security.title')} description={t('security.description')} />
      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="md">
          <Title order={2} size="h3">
            {t('security.sectionTitle')}
          </Title>
          {body}
        </Stack>
      </Paper>
    </Stack>
  );
}
