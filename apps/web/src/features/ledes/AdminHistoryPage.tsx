import { useEffect, useMemo, useState } from 'react';
import { Anchor, Badge, Group, Loader as MantineLoader, Paper, ScrollArea, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload, IconFileSpreadsheet, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createColumnHelper, type SortingState } from '@tanstack/react-table';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { LEDES_HISTORY_PAGE_SIZES, LEDES_HISTORY_SORTS, type HistoryItem, type LedesHistorySort } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Loader } from '../../components/Loader.tsx';
import { adminHistoryQuery, downloadLedesFile, LEDES_DOWNLOAD_FAILURE } from './api.ts';
import { DownloadButton } from '../../components/DownloadButton.tsx';
import { EmptyHistory, rowDate } from './HistoryPage.tsx';
import { useOfficeLabel } from './labels.ts';
import { useLedesLive } from './live.ts';
import { LiveNotice } from '../../components/LiveNotice.tsx';
import { ADMIN_HISTORY_DEFAULT_PAGE_SIZE, PAGE_SIBLINGS, PAGINATION_DEBOUNCE_MS, POLL_INTERVAL_MS, resultPath, SEARCH_DEBOUNCE_MS, splitHistoryName } from './model.ts';
import { SortableTable } from '../../components/SortableTable.tsx';
import { StateBadge } from './StateBadge.tsx';
import { Pagination } from '../../components/Pagination.tsx';

const col = createColumnHelper<HistoryItem>();
const DEFAULT_SORTING: SortingState = [{ id: 'date', desc: true }];

function isSortColumn(id: string | undefined): id is LedesHistorySort {
  return !!id && (LEDES_HISTORY_SORTS as readonly string[]).includes(id);
}

/**
 * The admin log: everyone's files, sorted, searched and paged by the server (the table shows one
 * page as it comes). Cells are computed from the row at each render, so labels follow the language.
 */
export function AdminHistoryPage() {
  const { t, i18n } = useTranslation('ledes');
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const officeLabel = useOfficeLabel();
  const live = useLedesLive();

  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [pageSize, setPageSize] = useState<number>(ADMIN_HISTORY_DEFAULT_PAGE_SIZE);
  const [sorting, setSorting] = useState<SortingState>(DEFAULT_SORTING);
  const [page, setPage] = useState(1);
  const [debouncedPage] = useDebouncedValue(page, PAGINATION_DEBOUNCE_MS);
  // A new search, page size or order starts again at page 1.
  useEffect(() => setPage(1), [debouncedSearch, pageSize, sorting]);
  const effectivePage = page === 1 ? 1 : debouncedPage;
  const sortId = sorting[0]?.id;
  const sort: LedesHistorySort = isSortColumn(sortId) ? sortId : 'date';
  const order = sorting[0] ? (sorting[0].desc ? 'desc' : 'asc') : 'desc';

  const history = useQuery({
    ...adminHistoryQuery({ owner: 'all', search: debouncedSearch, page: effectivePage, limit: pageSize, sort, order }),
    refetchInterval: live.interval,
  });

  const columns = useMemo(
    () => [
      // Accessors only name the sortable columns: the server sorts, the cells read the row.
      col.accessor('name', {
        id: 'name',
        header: () => t('history.columns.name'),
        cell: (c) => (
          <Anchor component={Link} to={resultPath([c.row.original._id])} size="sm" fw={550} data-testid="history-name" className="portal-break">
            {splitHistoryName(c.row.original.name).label}
          </Anchor>
        ),
      }),
      col.accessor('created', {
        id: 'date',
        header: () => t('history.columns.date'),
        cell: (c) => (
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            {rowDate(c.row.original)}
          </Text>
        ),
      }),
      col.accessor((r) => r.user_info.company_agent, {
        id: 'provider',
        header: () => t('admin.columns.provider'),
        cell: (c) => (
          <Text size="sm" data-testid="history-provider">
            {c.row.original.user_info.company_agent}
          </Text>
        ),
      }),
      col.accessor('office', {
        id: 'office',
        header: () => t('admin.columns.office'),
        cell: (c) => (
          <Text size="sm" data-testid="history-office">
            {officeLabel(c.row.original.office)}
          </Text>
        ),
      }),
      col.accessor('type', {
        id: 'type',
        header: () => t('admin.columns.type'),
        cell: (c) => (
          <Badge variant="default" radius="sm" tt="none" size="sm" data-testid="history-type">
            {t(`types.${c.row.original.type}`)}
          </Badge>
        ),
      }),
      col.accessor('state', {
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
          const treated = r.path_treated;
          return (
            <Group gap={6} wrap="nowrap">
              <DownloadButton
                download={() => downloadLedesFile(r.path)}
                failure={LEDES_DOWNLOAD_FAILURE}
                label={t('admin.downloadOriginal', { name: label })}
                testId="download-original"
                icon={IconDownload}
              />
              {treated && (
                <DownloadButton
                  download={() => downloadLedesFile(treated)}
                  failure={LEDES_DOWNLOAD_FAILURE}
                  label={t('admin.downloadTreated', { name: label })}
                  testId="download-treated"
                  icon={IconFileSpreadsheet}
                />
              )}
            </Group>
          );
        },
      }),
    ],
    // `lang`: the cells' labels change with the language even when `t` keeps its identity.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, officeLabel, lang],
  );

  const data = history.data?.rows ?? [];
  const meta = history.data?.meta;
  const fetching = history.isFetching && !history.isPending;

  return (
    <Stack gap="lg">
      <PageHeader title={t('admin.title')} description={t('admin.description')} />
      <LiveNotice show={live.interrupted} pollMs={POLL_INTERVAL_MS} />
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
                manualSorting={{ sorting, onSortingChange: (next) => setSorting(next.length > 0 ? next : DEFAULT_SORTING) }}
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
