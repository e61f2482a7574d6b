import { useState } from 'react';
import { Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ReceiptUploadDto } from '@portal/contracts';
import { formatBytes } from '../../lib/files.ts';
import { formatDate } from '../../lib/format.ts';
import { LiveNotice } from '../../components/LiveNotice.tsx';
import { Loader } from '../../components/Loader.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Pagination } from '../../components/Pagination.tsx';
import { RunCard, runPercent } from '../../components/RunCard.tsx';
import { RECEIPT_POLL_MS, receiptUploadsQuery } from './receiptsApi.ts';

const PAGE_SIZE = 5;

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
  const status = item.state === 'Done' ? 'done' : item.state === 'Error' ? 'error' : 'running';
  const progress = item.entries_total === null ? t('uploads.progressUnknown', { done: item.entries_done }) : t('uploads.progress', { done: item.entries_done, total: item.entries_total });
  return (
    <RunCard
      testId="receipt-upload"
      id={item._id}
      name={item.name}
      meta={t('uploads.meta', { date: formatDate(item.created), size: formatBytes(item.size) })}
      state={item.state}
      stateLabel={t(`uploads.status.${status}`)}
      progress={{ percent: runPercent(item.entries_done, item.entries_total), label: t('uploads.progressLabel', { name: item.name }), text: progress }}
      error={t(`uploads.errorReason.${item.error_code ?? 'processing_failed'}`, { defaultValue: t('uploads.errorReason.processing_failed') })}
      counts={t('uploads.counts', { created: item.receipts_created, refused: item.refused_count })}
      refused={{
        count: item.refused_count,
        items: item.refused.map((r, i) => ({
          key: `${i}-${r.entry}`,
          text: t('uploads.refusedLine', { entry: r.entry, reason: t(`uploads.refusal.${r.code}`, { defaultValue: r.code }) }),
        })),
        show: t('uploads.showRefused', { count: item.refused_count }),
        hide: t('uploads.hideRefused'),
        kept: t('uploads.refusedKept', { count: item.refused.length }),
      }}
    />
  );
}
