import { useEffect, useState } from 'react';
import { Alert, Button, Group, Pagination, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconBellRinging, IconFileSpreadsheet, IconFileTypeCsv, IconSend } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PatentImportDto } from '@portal/contracts';
import { ApiError } from '../../lib/api.ts';
import { formatBytes, type FileRules } from '../../lib/files.ts';
import { formatDate, formatNumber } from '../../lib/format.ts';
import { msg } from '../../lib/message.tsx';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { DownloadButton } from '../../components/DownloadButton.tsx';
import { UploadForm, useFileUpload } from '../../components/UploadForm.tsx';
import { LiveNotice } from '../../components/LiveNotice.tsx';
import { Loader } from '../../components/Loader.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { RunCard, runPercent } from '../../components/RunCard.tsx';
import {
  downloadExport,
  EXPORT_POLL_MS,
  EXPORT_POLL_TIMES,
  exportListQuery,
  IMPORT_POLL_MS,
  importListQuery,
  triggerExport,
  triggerReminders,
  uploadPortfolio,
  usePortfolioLive,
  type PatentExportBatch,
} from './portfolioApi.ts';

/** packages/contracts PATENT_IMPORT_MAX_BYTES and PATENT_IMPORT_EXTENSIONS. */
export const PORTFOLIO_FILE_RULES: FileRules = { extensions: ['xlsx', 'csv'], maxFiles: 1, maxBytes: 25 * 1024 * 1024 };
const PAGE_SIZE = 10;
const PHONE_QUERY = '(max-width: 40em)';

/**
 * Admins' page of the portfolio's back-office loop (issue 11): upload the back office's export (live
 * progress and counts per import, refused rows with their reason), send the validated instructions
 * back now (the batches, downloadable as xlsx or CSV), and run today's reminders to the agents.
 */
export function PortfolioPage() {
  const { t } = useTranslation('portfolio');
  return (
    <Stack gap="xl" maw={1100} mx="auto" w="100%">
      <PageHeader title={t('title')} description={t('description')} />
      <ImportSection />
      <ExportSection />
      <ReminderSection />
    </Stack>
  );
}

function ImportSection() {
  const { t } = useTranslation('portfolio');
  const queryClient = useQueryClient();
  const [fileError, setFileError] = useState<string | null>(null);
  const [general, setGeneral] = useState<string | null>(null);
  const upload = useFileUpload(uploadPortfolio, {
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.portfolio.importPages() }).catch(() => undefined);
      notifySuccess(msg('portfolio:import.sent'));
    },
    onError: (error) => {
      if (!(error instanceof ApiError)) return setGeneral(t('import.errors.generic'));
      if (error.code === 'wrong_extension' || error.code === 'wrong_type' || error.code === 'wrong_import_type') return setFileError(t('import.errors.wrongType'));
      if (error.code === 'payload_too_large') return setFileError(t('import.errors.tooLarge', { size: formatBytes(PORTFOLIO_FILE_RULES.maxBytes) }));
      if (error.code === 'error_choose_file') return setFileError(t('import.errors.chooseFile'));
      if (error.code === 'network_error' || error.code === 'timeout') return setGeneral(t('import.errors.network'));
      setGeneral(error.message || t('import.errors.generic'));
    },
  });

  return (
    <Stack gap="md" component="section" aria-labelledby="portfolio-import-title">
      <Title order={2} size="h3" id="portfolio-import-title">
        {t('import.title')}
      </Title>
      <UploadForm
        upload={upload}
        label={t('import.file.label')}
        hint={t('import.file.hint', { size: formatBytes(PORTFOLIO_FILE_RULES.maxBytes) })}
        rules={PORTFOLIO_FILE_RULES}
        fileError={fileError}
        onChosen={() => setFileError(null)}
        onSubmit={() => {
          setGeneral(null);
          setFileError(upload.start() === 'no-file' ? t('import.errors.chooseFile') : null);
        }}
        submitLabel={t('import.submit')}
        testIds={{ form: 'portfolio-import-form', input: 'portfolio-file-input', error: 'error-portfolio-file', submit: 'portfolio-import-submit' }}
      >
        {general && (
          <Alert color="red" role="alert" data-testid="portfolio-import-error">
            {general}
          </Alert>
        )}
      </UploadForm>
      <ImportList />
    </Stack>
  );
}

function ImportList() {
  const { t } = useTranslation('portfolio');
  const [page, setPage] = useState(1);
  const live = usePortfolioLive();
  const list = useQuery({
    ...importListQuery(page, PAGE_SIZE),
    refetchInterval: (query) => (live.interrupted && query.state.data?.patent_imports.some((i) => i.state === 'in_progress') ? IMPORT_POLL_MS : false),
  });
  if (list.isPending) return <Loader loading />;
  if (list.isError) return <LoadError message={t('imports.loadError')} retryLabel={t('retry')} onRetry={() => void list.refetch().catch(() => undefined)} testId="portfolio-imports-error" />;
  const { patent_imports: imports, meta } = list.data;
  return (
    <Stack gap="sm">
      <Title order={3} size="h4">
        {t('imports.title')}
      </Title>
      <LiveNotice show={live.interrupted} pollMs={IMPORT_POLL_MS} />
      {imports.length === 0 ? (
        <Text c="dimmed" data-testid="portfolio-imports-empty">
          {t('imports.empty')}
        </Text>
      ) : (
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} data-testid="portfolio-imports">
          {imports.map((item) => (
            <ImportCard key={item._id} item={item} />
          ))}
        </Stack>
      )}
      {meta.totalPages > 1 && <Pagination total={meta.totalPages} value={page} onChange={setPage} size="sm" getControlProps={(control) => ({ 'aria-label': t(`pageControl.${control}`) })} />}
    </Stack>
  );
}

function ImportCard({ item }: { item: PatentImportDto }) {
  const { t } = useTranslation('portfolio');
  const status = item.state === 'Done' ? 'done' : item.state === 'Error' ? 'error' : 'running';
  const progress = item.rows_total === null ? t('imports.progressUnknown', { done: item.rows_done }) : t('imports.progress', { done: item.rows_done, total: item.rows_total });
  return (
    <RunCard
      testId="portfolio-import"
      id={item._id}
      name={item.name}
      meta={t('imports.meta', { date: formatDate(item.created), size: formatBytes(item.size) })}
      state={item.state}
      stateLabel={t(`imports.status.${status}`)}
      progress={{ percent: runPercent(item.rows_done, item.rows_total), label: t('imports.progressLabel', { name: item.name }), text: progress }}
      error={t(`imports.errorReason.${item.error_code ?? 'processing_failed'}`, {
        defaultValue: t(`annuities:reason.${item.error_code ?? 'processing_failed'}`, { defaultValue: t('imports.errorReason.processing_failed') }),
      })}
      counts={[
        t('imports.counts', { inserted: item.inserted, updated: item.updated, unchanged: item.unchanged, rejected: item.rejected }),
        ...(item.flagged > 0 ? [t('imports.flagged', { count: item.flagged })] : []),
      ].join(' · ')}
      refused={{
        count: item.rejected,
        items: item.rejections.map((r) => ({
          key: `${r.row}-${r.code}-${r.field ?? ''}`,
          text: r.field
            ? t('imports.rejectionWithField', { row: r.row, field: r.field, reason: t(`imports.rejection.${r.code}`) })
            : t('imports.rejectionRow', { row: r.row, reason: t(`imports.rejection.${r.code}`) }),
        })),
        show: t('imports.showRejections', { count: item.rejected }),
        hide: t('imports.hideRejections'),
        kept: t('imports.rejectionsKept', { count: item.rejections.length }),
      }}
    />
  );
}

function ExportSection() {
  const { t } = useTranslation('portfolio');
  const queryClient = useQueryClient();
  const phone = useMediaQuery(PHONE_QUERY);
  const [page, setPage] = useState(1);
  const [polls, setPolls] = useState(0);
  const list = useQuery({ ...exportListQuery(page, PAGE_SIZE), refetchInterval: polls > 0 ? EXPORT_POLL_MS : false });

  // After "export now", the batch comes from the queue: read the list again a few times.
  useEffect(() => {
    if (polls === 0 || !list.isFetchedAfterMount) return;
    const timer = setTimeout(() => setPolls((p) => Math.max(0, p - 1)), EXPORT_POLL_MS);
    return () => clearTimeout(timer);
  }, [polls, list.dataUpdatedAt, list.isFetchedAfterMount]);

  const run = useMutation({
    mutationFn: triggerExport,
    onSuccess: () => {
      notifySuccess(msg('portfolio:exports.queued'));
      setPage(1);
      setPolls(EXPORT_POLL_TIMES);
      queryClient.invalidateQueries({ queryKey: queryKeys.portfolio.exportPages() });
    },
    onError: () => notifyError(msg('portfolio:exports.failed')),
  });

  return (
    <Stack gap="md" component="section" aria-labelledby="portfolio-export-title">
      <SectionHeader id="portfolio-export-title" title={t('exports.title')} description={t('exports.description')}>
        <Button leftSection={<IconSend size={18} aria-hidden="true" />} onClick={() => run.mutate()} loading={run.isPending} title={t('exports.runLabel')} data-testid="portfolio-export-now">
          {t('exports.run')}
        </Button>
      </SectionHeader>
      {list.isPending ? (
        <Loader loading />
      ) : list.isError ? (
        <LoadError message={t('exports.loadError')} retryLabel={t('retry')} onRetry={() => void list.refetch().catch(() => undefined)} testId="portfolio-exports-error" />
      ) : list.data.patent_exports.length === 0 ? (
        <Text c="dimmed" data-testid="portfolio-exports-empty">
          {t('exports.empty')}
        </Text>
      ) : phone ? (
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} data-testid="portfolio-exports">
          {list.data.patent_exports.map((batch) => (
            <Paper key={batch._id} component="li" withBorder p="sm" radius="md" data-testid="portfolio-export">
              <Stack gap={6}>
                <Text fw={600} className="portal-break">
                  {batch.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {t('exports.cardMeta', { date: formatDate(batch.created), count: batch.patent_count })}
                </Text>
                <ExportDownloads batch={batch} />
              </Stack>
            </Paper>
          ))}
        </Stack>
      ) : (
        <Table striped verticalSpacing="sm" data-testid="portfolio-exports">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('exports.columns.name')}</Table.Th>
              <Table.Th scope="col">{t('exports.columns.date')}</Table.Th>
              <Table.Th scope="col" ta="right">
                {t('exports.columns.count')}
              </Table.Th>
              <Table.Th scope="col">{t('exports.columns.files')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.patent_exports.map((batch) => (
              <Table.Tr key={batch._id} data-testid="portfolio-export">
                <Table.Td className="portal-break">{batch.name}</Table.Td>
                <Table.Td>{formatDate(batch.created)}</Table.Td>
                <Table.Td ta="right" data-testid="portfolio-export-count">
                  {formatNumber(batch.patent_count)}
                </Table.Td>
                <Table.Td>
                  <ExportDownloads batch={batch} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {list.data && list.data.meta.totalPages > 1 && (
        <Pagination total={list.data.meta.totalPages} value={page} onChange={setPage} size="sm" getControlProps={(control) => ({ 'aria-label': t(`pageControl.${control}`) })} />
      )}
    </Stack>
  );
}

function ExportDownloads({ batch }: { batch: PatentExportBatch }) {
  const { t } = useTranslation('portfolio');
  return (
    <Group gap={6} wrap="nowrap">
      <DownloadButton
        download={() => downloadExport(batch, 'xlsx')}
        failure={() => msg('portfolio:exports.downloadError')}
        label={t('exports.downloadXlsx', { name: batch.name })}
        testId="portfolio-export-xlsx"
        icon={IconFileSpreadsheet}
      />
      <DownloadButton
        download={() => downloadExport(batch, 'csv')}
        failure={() => msg('portfolio:exports.downloadError')}
        label={t('exports.downloadCsv', { name: batch.name })}
        testId="portfolio-export-csv"
        icon={IconFileTypeCsv}
      />
    </Group>
  );
}

function ReminderSection() {
  const { t } = useTranslation('portfolio');
  const run = useMutation({
    mutationFn: triggerReminders,
    onSuccess: () => notifySuccess(msg('portfolio:reminders.queued')),
    onError: () => notifyError(msg('portfolio:reminders.failed')),
  });
  return (
    <Stack gap="sm" component="section" aria-labelledby="portfolio-reminders-title">
      <SectionHeader id="portfolio-reminders-title" title={t('reminders.title')} description={t('reminders.description')}>
        <Button variant="light" leftSection={<IconBellRinging size={18} aria-hidden="true" />} onClick={() => run.mutate()} loading={run.isPending} title={t('reminders.runLabel')} data-testid="portfolio-reminders-now">
          {t('reminders.run')}
        </Button>
      </SectionHeader>
    </Stack>
  );
}

/** A section's heading (named for its landmark), its explanation, and its action on the right. */
function SectionHeader({ id, title, description, children }: { id: string; title: string; description: string; children: React.ReactNode }) {
  return (
    <Group justify="space-between" align="flex-end" gap="sm">
      <Stack gap={4}>
        <Title order={2} size="h3" id={id}>
          {title}
        </Title>
        <Text size="sm" c="dimmed" maw={640}>
          {description}
        </Text>
      </Stack>
      {children}
    </Group>
  );
}
