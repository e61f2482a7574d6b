import { useMemo } from 'react';
import { Anchor, Button, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconFileSpreadsheet, IconFileText, IconHistory, IconUpload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { formatDate, formatDay } from '../../lib/format.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ServerList } from '../../components/list/ServerList.tsx';
import { useServerList } from '../../components/list/useServerList.ts';
import { userHistoryQuery, downloadLedesFile, LEDES_DOWNLOAD_FAILURE } from './api.ts';
import { DownloadButton } from '../../components/DownloadButton.tsx';
import { useLedesLive } from './live.ts';
import { LiveNotice } from '../../components/LiveNotice.tsx';
import type { HistoryItem } from '@portal/contracts';
import { PAGE_SIBLINGS, POLL_INTERVAL_MS, resultPath, runStatus, splitHistoryName, treatedPending, USER_HISTORY_PAGE_SIZE } from './model.ts';
import { StateBadge } from './StateBadge.tsx';
import { TreatedPending } from './TreatedPending.tsx';

const col = createColumnHelper<HistoryItem>();
const STATUS_ORDER = { in_progress: 0, error: 1, refused: 2, accepted: 3 } as const;

/** The name's date, falling back to the creation date, in the page's language. */
export function rowDate(row: HistoryItem): string {
  return formatDay(splitHistoryName(row.name).date) || formatDate(row.created);
}

/** Empty history: 'Aucun historique disponible' / 'No history available'. */
export function EmptyHistory() {
  const { t } = useTranslation('ledes');
  return (
    <Stack align="center" gap="xs" py="xl" data-testid="history-empty">
      <ThemeIcon size={48} radius="xl" variant="light" color="gray">
        <IconHistory size={26} aria-hidden="true" />
      </ThemeIcon>
      <Text fw={600}>{t('history.empty')}</Text>
      <Text size="sm" c="dimmed">
        {t('history.neverRun')}
      </Text>
    </Stack>
  );
}

function TreatedDownload({ run: r }: { run: HistoryItem }) {
  const { t } = useTranslation('ledes');
  const treated = r.path_treated;
  if (treatedPending(r)) return <TreatedPending />;
  return treated ? (
    <DownloadButton
      download={() => downloadLedesFile(treated)}
      failure={LEDES_DOWNLOAD_FAILURE}
      label={t('admin.downloadTreated', { name: splitHistoryName(r.name).label })}
      testId="download-treated"
      icon={IconFileSpreadsheet}
    />
  ) : null;
}

/** On a phone, one card per run: the name (its result), the date, the state and the treated file. */
function RunCard({ run: r }: { run: HistoryItem }) {
  return (
    <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
      <Stack gap={4} miw={0}>
        <Anchor component={Link} to={resultPath([r._id])} size="sm" fw={600} data-testid="history-name" className="portal-break">
          {splitHistoryName(r.name).label}
        </Anchor>
        <Text size="xs" c="dark.4" data-testid="history-date">
          {rowDate(r)}
        </Text>
        <StateBadge run={r} delivered={r.delivered} size="sm" compact />
        {/* Under the state, not beside the name: a phone's card has no room for a second column of words. */}
        {treatedPending(r) && <TreatedPending />}
      </Stack>
      {!treatedPending(r) && <TreatedDownload run={r} />}
    </Group>
  );
}

export function HistoryPage() {
  const { t } = useTranslation('ledes');
  const live = useLedesLive();
  // The API pages this history without a sort: the table sorts the page it shows (by date, newest first).
  const state = useServerList({ defaultSort: { id: 'date', desc: true }, sorts: ['date'] as const, defaultLimit: USER_HISTORY_PAGE_SIZE });
  const history = useQuery({ ...userHistoryQuery(state.page, USER_HISTORY_PAGE_SIZE), refetchInterval: live.interval });

  const columns = useMemo(
    () => [
      col.accessor((r) => splitHistoryName(r.name).label.toLowerCase(), {
        id: 'name',
        header: () => t('history.columns.name'),
        cell: (c) => (
          <Group gap="xs" wrap="nowrap">
            <IconFileText size={16} aria-hidden="true" color="var(--mantine-color-brand-6)" style={{ flexShrink: 0 }} />
            {/* The row's name is the link to its result (rows themselves are not focusable). */}
            <Anchor component={Link} to={resultPath([c.row.original._id])} size="sm" fw={550} data-testid="history-name" className="portal-break">
              {splitHistoryName(c.row.original.name).label}
            </Anchor>
          </Group>
        ),
      }),
      col.accessor((r) => r.created, {
        id: 'date',
        header: () => t('history.columns.date'),
        cell: (c) => (
          <Text size="sm" data-testid="history-date" style={{ whiteSpace: 'nowrap' }}>
            {rowDate(c.row.original)}
          </Text>
        ),
      }),
      col.accessor((r) => STATUS_ORDER[runStatus(r)], {
        id: 'state',
        header: () => t('history.columns.state'),
        // Compact as in the admin log: "sent to step 2" as an icon with its tooltip (the second badge overflowed the
        // column under the download button at tablet widths).
        cell: (c) => <StateBadge run={c.row.original} delivered={c.row.original.delivered} size="sm" compact />,
      }),
      col.display({
        id: 'treated',
        header: () => t('history.columns.treated'),
        cell: (c) => <TreatedDownload run={c.row.original} />,
      }),
    ],
    [t],
  );

  const data = history.data?.rows ?? [];
  const meta = history.data?.meta;

  return (
    <Stack gap="lg" maw={1000} mx="auto" w="100%">
      <PageHeader
        title={t('history.title')}
        description={t('history.description')}
        actions={
          <Button component={Link} to="/ledes/upload" leftSection={<IconUpload size={16} aria-hidden="true" />}>
            {t('history.newCheck')}
          </Button>
        }
      />
      <LiveNotice show={live.interrupted} pollMs={POLL_INTERVAL_MS} />
      <Paper withBorder shadow="xs" p="md">
        <ServerList
          query={history}
          state={state}
          clientSorting={[{ id: 'date', desc: true }]}
          rows={data}
          totalPages={meta?.totalPages}
          columns={columns}
          card={(r) => <RunCard run={r} />}
          getRowId={(r) => r._id}
          testId="history-table"
          rowTestId="history-row"
          emptyWithoutTable
          empty={<EmptyHistory />}
          error={
            <Text c="red.7" role="alert" p="md">
              {t('history.loadError')}
            </Text>
          }
          {...(data.length > 0 ? { count: { text: t('history.count', { count: meta?.total ?? data.length }) } } : {})}
          minWidth={560}
          pagination={{ siblings: PAGE_SIBLINGS }}
        />
      </Paper>
    </Stack>
  );
}
