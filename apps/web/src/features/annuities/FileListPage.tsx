import { useMemo, useState } from 'react';
import { Badge, Button, Group, Paper, Progress, Stack, Text, ThemeIcon, Tooltip, UnstyledButton } from '@mantine/core';
import { IconDownload, IconFileSpreadsheet, IconFiles, IconUpload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { LazyPatentsModal } from './LazyPatentsModal.tsx';
import type { AnnuityFileDto } from '@portal/contracts';
import { ApiError } from '../../lib/api.ts';
import { isAdmin, LOGGED_OUT } from '../../lib/access.ts';
import { sessionQuery } from '../../lib/auth.ts';
import { formatDate } from '../../lib/format.ts';
import { msg } from '../../lib/message.tsx';
import { DownloadButton } from '../../components/DownloadButton.tsx';
import { LiveNotice } from '../../components/LiveNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ServerList } from '../../components/list/ServerList.tsx';
import { useServerList } from '../../components/list/useServerList.ts';
import { downloadAnnuityFile, fileListQuery, useAnnuityFilesLive } from './filesApi.ts';
import {
  canOpen,
  DEFAULT_FILE_PAGE_SIZE,
  displayName,
  FILE_PAGE_SIBLINGS,
  FILE_PAGE_SIZES,
  FILE_POLL_MS,
  FILE_SEARCH_DEBOUNCE_MS,
  fileStatus,
  progressPercent,
  type FilePageSize,
} from './filesModel.ts';
import classes from './files.module.css';

const col = createColumnHelper<AnnuityFileDto>();
const STATUS_COLOUR = { done: 'green', running: 'orange', error: 'red' } as const;

function exportFailure(error: unknown) {
  return error instanceof ApiError && error.code === 'export_pending' ? msg('annuities:list.exportPending') : msg('annuities:list.downloadError');
}

/** The status cell: Fini / En cours with its live progress / Erreur with the reason in words. */
function StatusCell({ file }: { file: AnnuityFileDto }) {
  const { t } = useTranslation('annuities');
  const status = fileStatus(file.is_done);
  const badge = (
    <Badge variant="light" color={STATUS_COLOUR[status]} c={`${STATUS_COLOUR[status]}.9`} radius="sm" tt="none" data-testid="file-status" data-status={file.is_done}>
      {t(`status.${status}`)}
    </Badge>
  );
  if (status === 'running') {
    const percent = progressPercent(file);
    const label = file.rows_total === null ? t('list.progressUnknown', { done: file.rows_done }) : t('list.progress', { done: file.rows_done, total: file.rows_total });
    return (
      <Stack gap={4} className={classes.status}>
        {badge}
        <Progress
          value={percent ?? 100}
          animated
          striped={percent === null}
          color="orange"
          size="sm"
          aria-label={t('list.progressLabel', { name: displayName(file) })}
          aria-valuetext={label}
          data-testid="file-progress"
        />
        <Text size="xs" c="dimmed">
          {label}
        </Text>
      </Stack>
    );
  }
  if (status === 'error') {
    const reason = file.error_code ? t(`reason.${file.error_code}`, { defaultValue: file.error_message ?? t('list.errorUnknown') }) : t('list.errorUnknown');
    return (
      <Stack gap={4} className={classes.status}>
        <Tooltip label={reason} withArrow multiline maw={320}>
          {badge}
        </Tooltip>
        <Text size="xs" c="red.8" data-testid="file-error-reason">
          {reason}
        </Text>
      </Stack>
    );
  }
  return (
    <Stack gap={4} className={classes.status}>
      {badge}
      {file.counts && (
        <Text size="xs" c="dimmed" data-testid="file-counts">
          {t('list.counts', { ok: file.counts.ok, nok: file.counts.nok, orange: file.counts.orange, noDate: file.counts.no_date })}
        </Text>
      )}
    </Stack>
  );
}

/** A Done file's name or date opens its patents (a button); otherwise plain text. */
function OpenText({ file, text, testId, onOpen }: { file: AnnuityFileDto; text: string; testId: string; onOpen: (file: AnnuityFileDto) => void }) {
  const { t } = useTranslation('annuities');
  return canOpen(file) ? (
    <UnstyledButton className={testId === 'file-date' ? `${classes.nameButton} ${classes.nowrap}` : classes.nameButton} onClick={() => onOpen(file)} data-testid={testId} aria-label={testId === 'file-date' ? t('list.openDate', { date: text, name: displayName(file) }) : t('list.open', { name: displayName(file) })}>
      {text}
    </UnstyledButton>
  ) : (
    <Text size="sm" data-testid={testId} className={testId === 'file-date' ? classes.nowrap : 'portal-break'}>
      {text}
    </Text>
  );
}

function NameCell({ file, admin, onOpen }: { file: AnnuityFileDto; admin: boolean; onOpen: (file: AnnuityFileDto) => void }) {
  const { t } = useTranslation('annuities');
  return (
    <Stack gap={2}>
      <OpenText file={file} text={displayName(file)} testId="file-name" onOpen={onOpen} />
      {file.title && (
        <Text size="xs" c="dimmed" className="portal-break">
          {file.name_file_import}
        </Text>
      )}
      {admin && file.owner && (
        <Text size="xs" c="dimmed" data-testid="file-owner">
          {t('list.owner', { name: file.owner.company_agent, email: file.owner.email })}
        </Text>
      )}
    </Stack>
  );
}

function ImportButton({ file }: { file: AnnuityFileDto }) {
  const { t } = useTranslation('annuities');
  return (
    <DownloadButton
      download={() => downloadAnnuityFile(file.path_import)}
      failure={() => msg('annuities:list.downloadError')}
      label={t('list.downloadImport', { name: file.name_file_import })}
      testId="download-import"
      icon={IconDownload}
    />
  );
}

/** The export: a download once Done (with a note while the queue rewrites it after an edit). */
function ExportCell({ file }: { file: AnnuityFileDto }) {
  const { t } = useTranslation('annuities');
  const path = file.path_export;
  if (!canOpen(file) || !path) {
    return (
      <Text size="xs" c="dimmed">
        {file.is_done === 'Error' ? t('list.exportNone') : t('list.exportNotYet')}
      </Text>
    );
  }
  return (
    <Group gap={6} wrap="nowrap">
      <DownloadButton
        download={() => downloadAnnuityFile(path)}
        failure={exportFailure}
        label={t('list.downloadExport', { name: file.name_file_export })}
        testId="download-export"
        icon={IconFileSpreadsheet}
      />
      {file.export_stale && (
        <Text size="xs" c="dimmed" data-testid="export-stale">
          {t('list.exportUpdating')}
        </Text>
      )}
    </Group>
  );
}

/** On a phone, one card per file (a five-column table would hide the status off screen). */
function FileCard({ file, admin, onOpen }: { file: AnnuityFileDto; admin: boolean; onOpen: (file: AnnuityFileDto) => void }) {
  const { t } = useTranslation('annuities');
  return (
    <Stack gap="xs">
      <NameCell file={file} admin={admin} onOpen={onOpen} />
      <Text size="xs" c="dimmed">
        {t('list.columns.date')} {formatDate(file.created)}
      </Text>
      <StatusCell file={file} />
      <Group gap="sm" wrap="nowrap">
        <ImportButton file={file} />
        <ExportCell file={file} />
      </Group>
    </Stack>
  );
}

/** Spec "Annuities file list": search, 5 / 10 / 15 a page, sortable name and date, live status; a Done file opens its patents. */
export function FileListPage() {
  const { t } = useTranslation('annuities');
  const session = useQuery(sessionQuery).data ?? { ...LOGGED_OUT, user: null };
  const admin = isAdmin(session);
  const live = useAnnuityFilesLive();
  const state = useServerList({ defaultSort: { id: 'date', desc: true }, sorts: ['name', 'date'] as const, debounceMs: FILE_SEARCH_DEBOUNCE_MS, defaultLimit: DEFAULT_FILE_PAGE_SIZE });
  const { debounced, page, sort, order } = state;
  const limit = state.limit as FilePageSize;
  const [opened, setOpened] = useState<AnnuityFileDto | null>(null);

  const list = useQuery({
    ...fileListQuery({ page, limit, search: debounced, sort, order }),
    refetchInterval: (query) => live.interval(query.state.data),
  });

  const columns = useMemo(
    () => [
      col.accessor((f) => displayName(f), {
        id: 'name',
        header: () => t('list.columns.name'),
        cell: (c) => <NameCell file={c.row.original} admin={admin} onOpen={setOpened} />,
      }),
      col.accessor((f) => f.created, {
        id: 'date',
        header: () => t('list.columns.date'),
        cell: (c) => <OpenText file={c.row.original} text={formatDate(c.row.original.created)} testId="file-date" onOpen={setOpened} />,
      }),
      col.display({ id: 'import', header: () => t('list.columns.import'), cell: (c) => <ImportButton file={c.row.original} /> }),
      col.display({ id: 'export', header: () => t('list.columns.export'), cell: (c) => <ExportCell file={c.row.original} /> }),
      col.display({ id: 'status', header: () => t('list.columns.status'), cell: (c) => <StatusCell file={c.row.original} /> }),
    ],
    [t, admin],
  );

  const data = list.data?.data ?? [];
  const meta = list.data?.meta;
  const empty = (
    <Stack align="center" gap="xs" py="xl" data-testid="files-empty">
      <ThemeIcon size={48} radius="xl" variant="light" color="gray">
        <IconFiles size={26} aria-hidden="true" />
      </ThemeIcon>
      <Text fw={600}>{debounced.trim() ? t('list.noMatch') : t('list.empty')}</Text>
      {!debounced.trim() && (
        <Text size="sm" c="dimmed">
          {t('list.emptyHint')}
        </Text>
      )}
    </Stack>
  );

  return (
    <Stack gap="lg" maw={1100} mx="auto" w="100%">
      <PageHeader
        title={t('list.title')}
        description={t('list.description')}
        actions={
          <Button component={Link} to="/annuites/verify" leftSection={<IconUpload size={16} aria-hidden="true" />}>
            {t('list.newCheck')}
          </Button>
        }
      />
      <LiveNotice show={live.interrupted} pollMs={FILE_POLL_MS} />
      <Paper withBorder shadow="xs" p="md">
        <ServerList
          query={list}
          state={state}
          rows={data}
          totalPages={meta?.totalPages}
          columns={columns}
          card={(f) => <FileCard file={f} admin={admin} onOpen={setOpened} />}
          getRowId={(f) => f._id}
          testId="files-table"
          rowTestId="file-row"
          empty={empty}
          error={
            <Text c="red.7" role="alert" p="md">
              {t('list.loadError')}
            </Text>
          }
          count={{ text: t('list.count', { count: meta?.total ?? data.length }), testId: 'files-count' }}
          search={{ placeholder: t('list.searchPlaceholder'), ariaLabel: t('list.search'), testId: 'files-search', fetching: list.isFetching }}
          pageSize={{ sizes: FILE_PAGE_SIZES, label: t('list.pageSize'), testId: 'files-page-size' }}
          minWidth={760}
          pagination={{ siblings: FILE_PAGE_SIBLINGS }}
        />
      </Paper>
      <LazyPatentsModal file={opened} onClose={() => setOpened(null)} />
    </Stack>
  );
}
