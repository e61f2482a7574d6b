import { useState } from 'react';
import { Button, Group, Pagination, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconList, IconReceipt } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../components/LoadError.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { unlinkedReceiptsQuery, useReceiptsLive } from './receiptsApi.ts';
import { UnlinkedReceiptCard } from './unlinked/UnlinkedReceiptCard.tsx';

const LIMIT = 10;

/** Staff's unlinked receipts (issue 29 §2, decision 198): what the matcher read, a patent search, link by hand (audited). */
export function UnlinkedReceiptsPage() {
  const { t } = useTranslation('receipts');
  useReceiptsLive();
  const [page, setPage] = useState(1);
  const list = useQuery(unlinkedReceiptsQuery(page, LIMIT));
  const rows = list.data?.recepisse ?? [];
  const meta = list.data?.meta;

  return (
    <Stack gap="lg" maw={1200} mx="auto" w="100%">
      <PageHeader
        title={t('unlinked.title')}
        description={t('unlinked.description')}
        actions={
          <Button component={Link} to="/annuities/list-receipt" variant="default" leftSection={<IconList size={16} aria-hidden="true" />}>
            {t('unlinked.toList')}
          </Button>
        }
      />
      {list.isError ? (
        <LoadError message={t('list.loadError')} retryLabel={t('list.retry')} onRetry={() => void list.refetch().catch(() => undefined)} testId="unlinked-load-error" />
      ) : list.isPending ? (
        <Text c="dark.4">{t('unlinked.loading')}</Text>
      ) : rows.length === 0 ? (
        <Stack align="center" gap="xs" py="xl" data-testid="unlinked-empty">
          <ThemeIcon size={48} radius="xl" variant="light" color="gray">
            <IconReceipt size={26} aria-hidden="true" />
          </ThemeIcon>
          <Text fw={600}>{t('unlinked.empty')}</Text>
        </Stack>
      ) : (
        <>
          <Text size="sm" c="dark.4" data-testid="unlinked-count">
            {t('unlinked.count', { count: meta?.total ?? rows.length })}
          </Text>
          {rows.map((r) => (
            <UnlinkedReceiptCard key={r._id} receipt={r} />
          ))}
          {(meta?.totalPages ?? 1) > 1 && (
            <Group justify="center">
              <Pagination total={meta?.totalPages ?? 1} value={page} onChange={setPage} siblings={1} data-testid="unlinked-pagination" />
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}
