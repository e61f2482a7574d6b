import { Alert, Badge, Button, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { RegisterSyncRunDto } from '@portal/contracts';
import { formatDate, formatNumber } from '../../lib/format.ts';
import { notifyError } from '../../lib/notify.ts';
import { msg } from '../../lib/message.tsx';
import { registerKeys, startSync, syncRunsQuery } from './registerApi.ts';

/** A moment the server gave, as its day and time in the reader's language (formatting only, no arithmetic). */
function formatMoment(iso: string, lang: string): string {
  return `${formatDate(iso, lang)} ${new Date(iso).toLocaleTimeString(lang, { hour: '2-digit', minute: '2-digit' })}`;
}

function RunStatus({ run }: { run: RegisterSyncRunDto }) {
  const { t } = useTranslation('register');
  if (run.disabled) return <Badge color="gray" c="dark.6" variant="light" tt="none">{t('sync.state.disabled')}</Badge>;
  if (run.state === 'in_progress' && run.paused_until) return <Badge color="orange" c="orange.9" variant="light" tt="none">{t('sync.state.paused')}</Badge>;
  const color = run.state === 'Done' ? 'green' : run.state === 'Error' ? 'red' : 'blue';
  return (
    <Badge color={color} c={`${color}.9`} variant="light" tt="none" data-testid="register-run-state">
      {t(`sync.state.${run.state}`)}
    </Badge>
  );
}

/** The latest sync run with its live progress (patents done / total, paused until…), and "sync now". */
export function SyncPanel() {
  const { t, i18n } = useTranslation('register');
  const queryClient = useQueryClient();
  const runs = useQuery(syncRunsQuery());
  const start = useMutation({
    mutationFn: startSync,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: registerKeys.runs() }),
    onError: () => notifyError(msg('register:sync.startError')),
  });
  const latest = runs.data?.runs[0];
  const running = latest?.state === 'in_progress';
  const percent = latest?.total ? Math.round((latest.done / latest.total) * 100) : 0;
  return (
    <Paper withBorder shadow="xs" p="md" data-testid="register-sync">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Title order={2} size="h4">
            {t('sync.title')}
          </Title>
          <Button leftSection={<IconRefresh size={16} aria-hidden="true" />} onClick={() => start.mutate()} loading={start.isPending} disabled={running} data-testid="register-sync-now">
            {t('sync.now')}
          </Button>
        </Group>
        {runs.data && !runs.data.configured && (
          <Alert color="orange" variant="light" data-testid="register-not-configured">
            {t('sync.notConfigured')}
          </Alert>
        )}
        {!latest ? (
          <Text size="sm" c="dark.4">
            {t('sync.none')}
          </Text>
        ) : (
          <Stack gap={6} data-testid="register-run">
            <Group gap="sm" wrap="wrap">
              <RunStatus run={latest} />
              <Text size="sm" data-testid="register-run-progress">
                {latest.total === null ? t('sync.starting') : t('sync.progress', { done: latest.done, total: latest.total })}
              </Text>
              <Text size="sm" c="dark.4">
                {t('sync.started', { at: formatMoment(latest.created, i18n.language) })}
              </Text>
            </Group>
            {running && <Progress value={percent} aria-label={t('sync.progressLabel')} />}
            {latest.paused_until && latest.state === 'in_progress' && (
              <Text size="sm" c="orange.9" data-testid="register-run-paused">
                {t('sync.pausedUntil', { at: formatMoment(latest.paused_until, i18n.language) })}
              </Text>
            )}
            {latest.state === 'Done' && !latest.disabled && (
              <Text size="sm" data-testid="register-run-summary">
                {t('sync.summary', { found: formatNumber(latest.found), notFound: formatNumber(latest.not_found), failed: formatNumber(latest.failed), discrepancies: formatNumber(latest.discrepancies) })}
              </Text>
            )}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
