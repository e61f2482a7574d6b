import { useEffect, useMemo, useState } from 'react';
import { Badge, Group, Loader as MantineLoader, Pagination, Paper, ScrollArea, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload, IconFileSpreadsheet, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { LEDES_HISTORY_PAGE_SIZES, type HistoryItem } from '@portal/contracts';
import { sessionQuery } from '../../lib/auth.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Loader } from '../../components/Loader.tsx';
import { adminHistoryQuery } from './api.ts';
import { DownloadButton } from './DownloadButton.tsx';
import { EmptyHistory, rowDate } from './HistoryPage.tsx';
import { useOfficeLabel } from './labels.ts';
import { useLedesLive } from './live.ts';
import { LiveNotice } from './LiveNotice.tsx';
import {
  ADMIN_HISTORY_DEFAULT_PAGE_SIZE,
  PAGE_SIBLINGS,
  PAGINATION_DEBOUNCE_MS,
  resultPath,
  runStatus,
  SEARCH_DEBOUNCE_MS,
  splitHistoryName,
} from './model.ts';
import { SortableTable } from '../../components/SortableTable.tsx';
import { StateBadge } from './StateBadge.tsx';

const col = createColumnHelper<HistoryItem>();
const STATUS_ORDER = { in_progress: 0, error: 1, refused: 2, accepted: 3 } as const;

export function AdminHistoryPage() {
  const { t } = useTranslation('ledes');
  const navigate = useNavigate();
  const officeLabel = useOfficeLabel();
  const live = useLedesLive();
  const session = useQuery(sessionQuery);
  const adminId = session.data?.user?._id ?? 'all';

  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [pageSize, setPageSize] = useState<number>(ADMIN_HISTORY_DEFAULT_PAGE_SIZE);
  const [page, setPage] = useState(1);
  const [debouncedPage] = useDebouncedValue(page, PAGINATION_DEBOUNCE_MS);
  // A new search or page size starts again at page 1.
  useEffect(() => setPage(1), [debouncedSearch, pageSize]);
  const effectivePage = page === 1 ? 1 : debouncedPage;

  const history = useQuery({ ...adminHistoryQuery(adminId, debouncedSearch, effectivePage, pageSize), refetchInterval: live.interval });

  const columns = useMemo(
    () => [
      col.accessor((r) => splitHistoryName(r.name).label.toLowerCase(), {
        id: 'name',
        header: () => t('history.columns.name'),
        cell: (c) => (
          <Text size="sm" fw={550} data-testid="history-name" style={{ overflowWrap: 'anywhere' }}>
            {splitHistoryName(c.row.original.name).label}
          </Text>
        ),
      }),
      col.accessor((r) => r.created, {
        id: 'date',
        header: () => t('history.columns.date'),
        cell: (c) => (
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            {rowDate(c.row.original)}
          </Text>
        ),
      }),
      col.accessor((r) => (r.user_info?.company_agent ?? '').toLowerCase(), {
        id: 'provider',
        header: () => t('admin.columns.provider'),
        cell: (c) => (
          <Text size="sm" data-testid="history-provider">
            {c.row.original.user_info?.company_agent}
          </Text>
        ),
      }),
      col.accessor((r) => officeLabel(r.office), {
        id: 'office',
        header: () => t('admin.columns.office'),
        cell: (c) => <Text size="sm">{c.getValue()}</Text>,
      }),
      col.accessor((r) => t(`types.${r.type}`), {
        id: 'type',
        header: () => t('admin.columns.type'),
        cell: (c) => (
          <Badge variant="default" radius="sm" tt="none" size="sm">
            {c.getValue()}
          </Badge>
        ),
      }),
      col.accessor((r) => STATUS_ORDER[runStatus(r)], {
        id: 'state',
        header: () => t('history.columns.state'),
        cell: (c) => <StateBadge run={c.row.original} delivered={c.row.original.delivered} size="sm" compact />,
      }),
      col.display({
        id: 'downloads',
        header: () => t('admin.columns.downloads'),
        cell: (c) => {
          const r = c.row.original;
          const label = splitHistoryName(r.name).label;
          return (
            <Group gap={6} wrap="nowrap">
              <DownloadButton path={r.path} label={t('admin.downloadOriginal', { name: label })} testId="download-original" icon={IconDownload} />
              {r.path_treated && (
                <DownloadButton path={r.path_treated} label={t('admin.downloadTreated', { name: label })} testId="download-treated" icon={IconFileSpreadsheet} />
              )}
            </Group>
          );
        },
      }),
    ],
    [t, officeLabel],
  );

  const data = history.data?.rows ?? [];
  const meta = history.data?.meta;
  const fetching = history.isFetching && !history.isPending;

  return (
    <Stack gap="lg">
      <PageHeader title={t('admin.title')} description={t('admin.description')} />
      <LiveNotice show={live.interrupted} />
      <Paper withBorder shadow="xs" p="md">
        <Stack gap="md">
          <Group justify="space-between" wrap="wrap" gap="sm">
            <TextInput
              type="search"
              aria-label={t('admin.search')}
              placeholder={t('admin.search')}
              leftSection={<IconSearch size={16} aria-hidden="true" />}
              rightSection={fetching ? <MantineLoader size={14} /> : null}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              w={{ base: '100%', sm: 380 }}
              data-testid="admin-history-search"
            />
            <Group gap="sm" wrap="nowrap">
              <Text size="sm" c="dimmed" aria-live="polite" data-testid="admin-history-count">
                {t('history.count', { count: meta?.total ?? 0 })}
              </Text>
              <Select
                aria-label={t('admin.pageSize')}
                data={LEDES_HISTORY_PAGE_SIZES.map((n) => ({ value: String(n), label: t('admin.perPage', { count: n }) }))}
                value={String(pageSize)}
                onChange={(v) => v && setPageSize(Number(v))}
                w={150}
                size="sm"
                data-testid="admin-page-size"
              />
            </Group>
          </Group>
          {history.isPending ? (
            <Loader loading />
          ) : history.isError ? (
            <Text c="red.7" role="alert">
              {t('history.loadError')}
            </Text>
          ) : data.length === 0 ? (
            debouncedSearch ? (
              <Text ta="center" c="dimmed" py="xl" data-testid="admin-no-match">
                {t('admin.noMatch', { search: debouncedSearch })}
              </Text>
            ) : (
              <EmptyHistory />
            )
          ) : (
            <ScrollArea type="auto">
              <SortableTable
                data={data}
                columns={columns}
                initialSorting={[{ id: 'date', desc: true }]}
                onRowClick={(row) => {
                  navigate(resultPath([row._id]));
                }}
                rowTestId="history-row"
                testId="admin-history-table"
                empty={null}
                minWidth={980}
                getRowId={(r) => r._id}
              />
            </ScrollArea>
          )}
          {meta && meta.totalPages > 1 && (
            <Group justify="center">
              <Pagination total={meta.totalPages} value={page} onChange={setPage} siblings={PAGE_SIBLINGS} boundaries={1} data-testid="admin-pagination" />
            </Group>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
