import { useState } from 'react';
import { Badge, Button, Collapse, Group, List, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ReceiptUploadDto } from '@portal/contracts';
import { formatBytes } from '../../lib/files.ts';
import { formatDate } from '../../lib/format.ts';
import { LiveNotice } from '../../components/LiveNotice.tsx';
import { Loader } from '../../components/Loader.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Pagination } from '../../components/Pagination.tsx';
import { RECEIPT_POLL_MS, receiptUploadsQuery } from './receiptsApi.ts';

const PAGE_SIZE = 5;
const STATE_COLOUR = { Done: 'green', in_progress: 'orange', Error: 'red' } as const;

/** The caller's recent uploads, live: state, progress, receipts made and the entries refused with their reason. */
export function UploadList({ interrupted }: { interrupted: boolean }) {
  const { t } = useTranslation('receipts');
  const [page, setPage] = useState(1);
  const list = useQuery({
    ...receiptUploadsQuery(page, PAGE_SIZE),
    refetchInterval: (query) => (interrupted && query.state.data?.uploads.some((u) => u.state === 'in_progress') ? RECEIPT_POLL_MS : false),
  });
  return (
    <Stack gap="sm" component="section" aria-labelledby="receipt-uploads-title">
      <Title order={2} size="h4" id="receipt-uploads-title">
        {t('uploads.title')}
      </Title>
      <LiveNotice show={interrupted} pollMs={RECEIPT_POLL_MS} />
      {list.isPending ? (
        <Loader loading />
      ) : list.isError ? (
        <LoadError message={t('uploads.loadError')} retryLabel={t('list.retry')} onRetry={() => void list.refetch().catch(() => undefined)} testId="receipt-uploads-error" />
      ) : list.data.uploads.length === 0 ? (
        <Text c="dark.4" data-testid="receipt-uploads-empty">
          {t('uploads.empty')}
        </Text>
      ) : (
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} data-testid="receipt-uploads">
          {list.data.uploads.map((item) => (
            <UploadCard key={item._id} item={item} />
          ))}
        </Stack>
      )}
      {list.data && list.data.meta.totalPages > 1 && <Pagination total={list.data.meta.totalPages} value={page} onChange={setPage} size="sm" />}
    </Stack>
  );
}

export function UploadCard({ item }: { item: ReceiptUploadDto }) {
  const { t } = useTranslation('receipts');
  const [open, setOpen] = useState(false);
  const status = item.state === 'Done' ? 'done' : item.state === 'Error' ? 'error' : 'running';
  const percent = item.entries_total ? Math.min(100, Math.round((100 * item.entries_done) / item.entries_total)) : null;
  const progress = item.entries_total === null ? t('uploads.progressUnknown', { done: item.entries_done }) : t('uploads.progress', { done: item.entries_done, total: item.entries_total });
  const refusedId = `refused-${item._id}`;
  return (
    <Paper component="li" withBorder p="md" radius="md" data-testid="receipt-upload" data-state={item.state}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" gap="sm" wrap="nowrap">
          <Stack gap={2} miw={0}>
            <Text fw={600} className="portal-break" data-testid="receipt-upload-name">
              {item.name}
            </Text>
            <Text size="xs" c="dark.4">
              {t('uploads.meta', { date: formatDate(item.created), size: formatBytes(item.size) })}
            </Text>
          </Stack>
          <Badge variant="light" color={STATE_COLOUR[item.state]} c={`${STATE_COLOUR[item.state]}.9`} radius="sm" tt="none" data-testid="receipt-upload-state">
            {t(`uploads.status.${status}`)}
          </Badge>
        </Group>
        {status === 'running' && (
          <Stack gap={4}>
            <Progress value={percent ?? 100} animated striped={percent === null} color="orange" size="sm" aria-label={t('uploads.progressLabel', { name: item.name })} aria-valuetext={progress} />
            <Text size="xs" c="dark.4">
              {progress}
            </Text>
          </Stack>
        )}
        {status === 'error' ? (
          <Text size="sm" c="red.8" data-testid="receipt-upload-error">
            {t(`uploads.errorReason.${item.error_code ?? 'processing_failed'}`, { defaultValue: t('uploads.errorReason.processing_failed') })}
          </Text>
        ) : (
          <Text size="sm" data-testid="receipt-upload-counts">
            {t('uploads.counts', { created: item.receipts_created, refused: item.refused_count })}
          </Text>
        )}
        {item.refused.length > 0 && (
          <>
            <Group>
              <Button variant="subtle" size="compact-sm" onClick={() => setOpen((o) => !o)} aria-expanded={open} aria-controls={refusedId} data-testid="receipt-upload-refused-toggle">
                {open ? t('uploads.hideRefused') : t('uploads.showRefused', { count: item.refused_count })}
              </Button>
            </Group>
            <Collapse expanded={open} id={refusedId}>
              {item.refused_count > item.refused.length && (
                <Text size="xs" c="dark.4" mb={4}>
                  {t('uploads.refusedKept', { count: item.refused.length })}
                </Text>
              )}
              <List size="sm" spacing={2} data-testid="receipt-upload-refused">
                {item.refused.map((r, i) => (
                  <List.Item key={`${i}-${r.entry}`} className="portal-break">
                    {t('uploads.refusedLine', { entry: r.entry, reason: t(`uploads.refusal.${r.code}`, { defaultValue: r.code }) })}
                  </List.Item>
                ))}
              </List>
            </Collapse>
          </>
        )}
      </Stack>
    </Paper>
  );
}
