import { Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { NotificationSettings, NotificationSettingsResponse } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Loader } from '../../components/Loader.tsx';
import { queryKeys } from '../../lib/queryKeys.ts';
import { msg } from '../../lib/message.tsx';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { getNotifications, putNotifications } from './api.ts';

type Setting = keyof NotificationSettings;

/** /account/notifications: the mails one opts in to (issue 31 §3); each switch is saved as it is turned. */
export function NotificationsPage() {
  const { t } = useTranslation('mfa');
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: queryKeys.account.notifications(), queryFn: ({ signal }) => getNotifications(signal) });
  const save = useMutation({
    mutationFn: (change: Partial<NotificationSettings>) => putNotifications(change),
    onSuccess: (answer) => {
      queryClient.setQueryData<NotificationSettingsResponse>(queryKeys.account.notifications(), answer);
      notifySuccess(msg('mfa:notifications.saved'));
    },
    onError: () => notifyError(msg('mfa:notifications.saveError')),
  });

  let body;
  if (settings.isPending) body = <Loader loading />;
  else if (settings.isError) body = <Text c="red.7" role="alert">{t('notifications.loadError')}</Text>;
  else {
    const { settings: current, digest_available } = settings.data;
    // While a change is saved its switch shows the value asked for.
    const shown = (key: Setting) => (save.isPending && save.variables[key] !== undefined ? save.variables[key] : current[key]);
    const toggle = (key: Setting, description: string) => (
      <Switch
        key={key}
        checked={shown(key)}
        disabled={save.isPending}
        onChange={(e) => save.mutate({ [key]: e.currentTarget.checked })}
        label={t(`notifications.${key}`)}
        description={description}
        data-testid={`notify-${key}`}
        size="md"
      />
    );
    body = (
      <Stack gap="lg">
        {toggle('ledes_refused', t('notifications.ledes_refusedHint'))}
        {toggle('ledes_delivered', t('notifications.ledes_deliveredHint'))}
        {digest_available && toggle('ledes_digest', t('notifications.ledes_digestHint'))}
      </Stack>
    );
  }

  return (
    <Stack gap="lg" maw={720}>
      <PageHeader title={t('notifications.title')} description={t('notifications.description')} />
      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="md">
          <Title order={2} size="h3">
            {t('notifications.ledesTitle')}
          </Title>
          {body}
        </Stack>
      </Paper>
    </Stack>
  );
}
