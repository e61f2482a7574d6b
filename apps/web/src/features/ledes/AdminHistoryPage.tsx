import { useMemo } from 'react';
import { Anchor, Badge, Group, Loader as MantineLoader, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconDownload, IconFileSpreadsheet, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { LEDES_HISTORY_PAGE_SIZES, LEDES_HISTORY_SORTS, type HistoryItem, type LedesHistorySort } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { adminHistoryQuery, downloadLedesFile, LEDES_DOWNLOAD_FAILURE } from './api.ts';
import { DownloadButton } from '../../components/DownloadButton.tsx';
import { EmptyHistory, rowDate } from './HistoryPage.tsx';
import { useOfficeLabel } from './labels.ts';
import { useLedesLive } from './live.ts';
import { LiveNotice } from '../../components/LiveNotice.tsx';
import { ADMIN_HISTORY_DEFAULT_PAGE_SIZE, PAGE_SIBLINGS, PAGINATION_DEBOUNCE_MS, POLL_INTERVAL_MS, resultPath, SEARCH_DEBOUNCE_MS, splitHistoryName, treatedPending } from './model.ts';
import { ServerList } from '../../components/list/ServerList.tsx';
import { useServerList } from '../../components/list/useServerList.ts';
import { StateBadge } from './StateBadge.tsx';
import { TreatedPending } from './TreatedPending.tsx';

const col = createColumnHelper<HistoryItem>();

function Downloads({ run: r }: { run: HistoryItem }) {
  const { t } = useTranslation('ledes');
  const label = splitHistoryName(r.name).label;
  const treated = r.path_treated;
  return (
    // Wraps so that "being prepared" goes under the original's button in a narrow column.
    <Group gap={6} wrap="wrap">
      <DownloadButton download={() => downloadLedesFile(r.path)} failure={LEDES_DOWNLOAD_FAILURE} label={t('admin.downloadOriginal', { name: label })} testId="download-original" icon={IconDownload} />
      {treated && (
        <DownloadButton download={() => downloadLedesFile(treated)} failure={LEDES_DOWNLOAD_FAILURE} label={t('admin.downloadTreated', { name: label })} testId="download-treated" icon={IconFileSpreadsheet} />
      )}
      {treatedPending(r) && <TreatedPending />}
    </Group>
  );
}

/** On a phone, one card per run: every column of the table (at 360 px the table showed the name and the date only). */
function RunCard({ run: r, officeLabel }: { run: HistoryItem; officeLabel: (office: HistoryItem['office']) => string }) {
  const { t } = useTranslation('ledes');
  return (
    <Stack gap={6}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Anchor component={Link} to={resultPath([r._id])} size="sm" fw={600} data-testid="history-name" className="portal-break">
          {splitHistoryName(r.name).label}
        </Anchor>
        <StateBadge run={r} delivered={r.delivered} size="sm" compact />
      </Group>
      <Text size="xs" c="dark.4">
        {rowDate(r)}
      </Text>
      <Text size="sm" data-testid="history-provider">
        {r.user_info.company_agent}
      </Text>
      <Group gap="xs" wrap="wrap">
        <Text size="xs" c="dark.4" data-testid="history-office">
          {officeLabel(r.office)}
        </Text>
        <Badge variant="default" radius="sm" tt="none" size="sm" data-testid="history-type">
          {t(`types.${r.type}`)}
        </Badge>
      </Group>
      <Downloads run={r} />
    </Stack>
  );
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

  // A new search, page size or order starts again at page 1; a run of page clicks asks the server once.
  const state = useServerList<LedesHistorySort>({
    defaultSort: { id: 'date', desc: true },
    sorts: LEDES_HISTORY_SORTS,
    debounceMs: SEARCH_DEBOUNCE_MS,
    defaultLimit: ADMIN_HISTORY_DEFAULT_PAGE_SIZE,
    pageDebounceMs: PAGINATION_DEBOUNCE_MS,
  });
  const { search, debounced: debouncedSearch, limit: pageSize, sort, order } = state;

  const history = useQuery({
    ...adminHistoryQuery({ owner: 'all', search: debouncedSearch, page: state.queryPage, limit: pageSize, sort, order }),
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
        cell: (c) => <Downloads run={c.row.original} />,
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
        <ServerList
          query={history}
          state={state}
          rows={data}
          totalPages={meta?.totalPages}
          columns={columns}
          card={(r) => <RunCard run={r} officeLabel={officeLabel} />}
          getRowId={(r) => r._id}
          testId="admin-history-table"
          rowTestId="history-row"
          emptyWithoutTable
          empty={
            debouncedSearch ? (
              <Text ta="center" c="dimmed" py="xl" data-testid="admin-no-match">
                {t('admin.noMatch', { search: debouncedSearch })}
              </Text>
            ) : (
              <EmptyHistory />
            )
          }
          error={
            <Text c="red.7" role="alert">
              {t('history.loadError')}
            </Text>
          }
          toolbar={
            <Group justify="space-between" wrap="wrap" gap="sm">
              <TextInput
                type="search"
                aria-label={t('admin.search')}
                placeholder={t('admin.search')}
                leftSection={<IconSearch size={16} aria-hidden="true" />}
                rightSection={fetching ? <MantineLoader size={14} /> : null}
                value={search}
                onChange={(e) => state.setSearch(e.currentTarget.value)}
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
                  onChange={(v) => v && state.setLimit(Number(v))}
                  w={150}
                  size="sm"
                  data-testid="admin-page-size"
                />
              </Group>
            </Group>
          }
          minWidth={980}
          pagination={{ siblings: PAGE_SIBLINGS, boundaries: 1, testId: 'admin-pagination' }}
        />
      </Paper>
    </Stack>
  );
}
