import { Alert, Badge, Button, Group, Paper, Progress, SimpleGrid, Skeleton, Stack, Tabs, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconCircleX, IconFileText, IconHistory, IconInfoCircle, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { FIRST_RESULT_LINE } from '@portal/contracts/constants';
import { Link, Navigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api.ts';
import { formatDate, formatNumber } from '../../lib/format.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { runPageQuery, runQuery, type LedesResultDto, type LedesRunDetail } from './api.ts';
import { FindingsTable } from './FindingsTable.tsx';
import { useOfficeLabel } from './labels.ts';
import { useLedesLive } from './live.ts';
import { LiveNotice } from '../../components/LiveNotice.tsx';
import { lineRanges, parseRunIds, POLL_INTERVAL_MS, runStatus } from './model.ts';
import { StateBadge } from './StateBadge.tsx';
import classes from './ledes.module.css';

function Stat({ label, value, color, testId }: { label: string; value: number; color?: string; testId: string }) {
  const { i18n } = useTranslation();
  return (
    <div className={classes.stat}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} className={classes.statLabel}>
        {label}
      </Text>
      <Text size="xl" fw={700} c={color} data-testid={testId}>
        {formatNumber(value, i18n.resolvedLanguage ?? i18n.language)}
      </Text>
    </div>
  );
}

/**
 * Where this page of findings sits in the file, and the way to the next page or back to the first: a
 * result page holds at most the server's page of findings (50,000 by default), cut on a whole line.
 */
function ResultPages({ page, fetching, onPage }: { page: LedesResultDto['page']; fetching: boolean; onPage: (fromLine: number | null) => void }) {
  const { t } = useTranslation('ledes');
  const first = page.from_line <= FIRST_RESULT_LINE;
  if (first && page.next_line === null) return null;
  // Lines are 0-based on the wire and 1-based on screen; a page ends just before `next_line`.
  const text =
    page.next_line === null
      ? t('result.pages.toEnd', { from: page.from_line + 1 })
      : first
        ? t('result.pages.upTo', { to: page.next_line })
        : t('result.pages.range', { from: page.from_line + 1, to: page.next_line });
  return (
    <Group justify="space-between" gap="xs" wrap="wrap" data-testid="result-pages">
      <Text size="sm" c="dimmed" aria-live="polite" data-testid="result-page-range">
        {text}
      </Text>
      <Group gap="xs">
        {!first && (
          <Button variant="default" size="xs" onClick={() => onPage(null)} data-testid="result-first-page">
            {t('result.pages.first')}
          </Button>
        )}
        {page.next_line !== null && (
          <Button size="xs" loading={fetching} onClick={() => onPage(page.next_line)} data-testid="result-next-page">
            {t('result.pages.next')}
          </Button>
        )}
      </Group>
    </Group>
  );
}

function RunCard({ detail }: { detail: LedesRunDetail }) {
  const { t } = useTranslation('ledes');
  const officeLabel = useOfficeLabel();
  const { run, result: firstPage } = detail;
  const status = runStatus(run);
  // null: the first page, the one the live updates fill; a number: a later page, fetched on demand.
  const [fromLine, setFromLine] = useState<number | null>(null);
  // The page on screen stays while the next one loads (the button shows the wait).
  const later = useQuery({ ...runPageQuery(run._id, fromLine ?? FIRST_RESULT_LINE), enabled: fromLine !== null && run.state === 'Done', placeholderData: keepPreviousData });
  const result = fromLine === null ? firstPage : (later.data?.result ?? null);

  const numericOk = result?.format_ok.map((l) => l.line).filter((l): l is number => typeof l === 'number') ?? [];
  const ranges = lineRanges(numericOk);
  // The whole run's counts, the same on every page.
  const totals = firstPage?.totals ?? result?.totals;
  const errorItems = totals?.errors ?? 0;
  const warningItems = totals?.warnings ?? 0;
  const refusedLines = totals?.refused_lines ?? 0;

  return (
    <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }} data-testid="run-card" data-run-id={run._id} data-run-state={status}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
          <Group gap="sm" wrap="nowrap" miw={0} align="flex-start">
            <IconFileText size={26} aria-hidden="true" color="var(--mantine-color-brand-6)" style={{ flexShrink: 0, marginTop: 2 }} />
            <div style={{ minWidth: 0 }}>
              <Title order={2} size="h4" className="portal-break" data-testid="run-filename">
                {run.filename}
              </Title>
              <Text size="sm" c="dimmed">
                {t('result.meta', { type: t(`types.${run.type}`), office: officeLabel(run.office), date: formatDate(run.created) })}
              </Text>
            </div>
          </Group>
          <StateBadge run={run} delivered={run.delivered} />
        </Group>

        {status === 'in_progress' && (
          <Stack gap={6}>
            <Progress value={100} animated striped color="orange" size="sm" aria-label={t('state.in_progress')} />
            {/* Not a live region: with several files each card would speak at every count; the page's summary speaks once. */}
            <Text size="sm" c="dimmed">
              <span data-testid="lines-checked">{t('result.linesChecked', { count: run.lines_checked })}</span>
            </Text>
          </Stack>
        )}

        {status === 'error' && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} aria-hidden="true" />} data-testid="run-error">
            {t('result.errorText')}
            {run.error_code && (
              <Text span size="sm" ml={6} data-testid="run-error-reason">
                {t(`result.errorReason.${run.error_code}`, { defaultValue: run.error_code })}
              </Text>
            )}
          </Alert>
        )}

        {run.state === 'Done' && !result && <Skeleton h={120} radius="md" />}

        {run.state === 'Done' && result && (
          <>
            <Alert
              color={status === 'accepted' ? 'teal' : 'red'}
              variant="light"
              icon={status === 'accepted' ? <IconCircleCheck size={18} aria-hidden="true" /> : <IconCircleX size={18} aria-hidden="true" />}
              data-testid="run-verdict"
            >
              {status === 'accepted' ? t(run.delivered ? 'result.acceptedDelivered' : 'result.accepted') : t('result.refused')}
            </Alert>
            <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
              <Stat label={t('result.stats.correct')} value={result.format_ok_total} color="teal.8" testId="count-correct" />
              <Stat label={t('result.stats.refusedLines')} value={refusedLines} color={refusedLines ? 'red.8' : undefined} testId="count-refused" />
              <Stat label={t('result.stats.errors')} value={errorItems} color={errorItems ? 'red.8' : undefined} testId="count-errors" />
              <Stat label={t('result.stats.warnings')} value={warningItems} color={warningItems ? 'orange.8' : undefined} testId="count-warnings" />
            </SimpleGrid>
            <ResultPages page={result.page} fetching={later.isFetching} onPage={setFromLine} />
            <Tabs defaultValue={errorItems > 0 || warningItems === 0 ? 'errors' : 'warnings'} keepMounted={false}>
              <Tabs.List>
                <Tabs.Tab value="errors" data-testid="tab-errors" rightSection={<Badge size="sm" variant="light" color={errorItems ? 'red' : 'gray'} circle={errorItems < 10}>{errorItems}</Badge>}>
                  {t('result.tabs.errors')}
                </Tabs.Tab>
                <Tabs.Tab value="warnings" data-testid="tab-warnings" rightSection={<Badge size="sm" variant="light" color={warningItems ? 'orange' : 'gray'} circle={warningItems < 10}>{warningItems}</Badge>}>
                  {t('result.tabs.warnings')}
                </Tabs.Tab>
                <Tabs.Tab value="correct" data-testid="tab-correct" rightSection={<Badge size="sm" variant="light" color="teal" circle={result.format_ok_total < 10}>{result.format_ok_total}</Badge>}>
                  {t('result.tabs.correct')}
                </Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="errors" pt="sm">
                <FindingsTable lines={result.errors} kind="errors" />
              </Tabs.Panel>
              <Tabs.Panel value="warnings" pt="sm">
                <FindingsTable lines={result.warnings} kind="warnings" />
              </Tabs.Panel>
              <Tabs.Panel value="correct" pt="sm">
                {result.format_ok_total === 0 ? (
                  <Text size="sm" c="dimmed" py="md">
                    {t('result.noCorrect')}
                  </Text>
                ) : (
                  <Stack gap={4} py="xs" data-testid="correct-lines">
                    <Text size="sm">{t('result.correctCount', { count: result.format_ok_total })}</Text>
                    <Text size="sm" c="dimmed">
                      {t('result.correctLines', { lines: ranges.text })}
                      {(ranges.truncated || result.format_ok_total > numericOk.length) && ' …'}
                    </Text>
                  </Stack>
                )}
              </Tabs.Panel>
            </Tabs>
          </>
        )}
      </Stack>
    </Paper>
  );
}

function MissingCard({ id, error }: { id: string; error: unknown }) {
  const { t } = useTranslation('ledes');
  const notFound = error instanceof ApiError && error.status === 404;
  return (
    <Alert color={notFound ? 'gray' : 'red'} variant="light" icon={<IconInfoCircle size={18} aria-hidden="true" />} data-testid="run-missing" title={t(notFound ? 'result.notFoundTitle' : 'result.loadErrorTitle')}>
      <Text size="sm">{t(notFound ? 'result.notFound' : 'result.loadError')}</Text>
      <Text size="xs" c="dimmed" ff="monospace" mt={4}>
        {id}
      </Text>
    </Alert>
  );
}

export function ResultPage() {
  const { t } = useTranslation('ledes');
  const [params] = useSearchParams();
  const ids = parseRunIds(params.get('runs'));
  const live = useLedesLive();
  const runs = useQueries({
    queries: ids.map((id) => ({
      ...runQuery(id),
      // While live updates are interrupted, runs still in progress (or Done without findings yet) are polled.
      refetchInterval: (q: { state: { data?: LedesRunDetail } }) => {
        const d = q.state.data;
        const pending = !d || d.run.state === 'in_progress' || (d.run.state === 'Done' && !d.result);
        return live.polling && pending ? POLL_INTERVAL_MS : false;
      },
    })),
  });

  // Nothing to show: the history is where results are found.
  if (ids.length === 0) return <Navigate to="/ledes/history" replace />;

  const details = runs.map((q) => q.data).filter((d): d is LedesRunDetail => !!d);
  const counts = { in_progress: 0, accepted: 0, refused: 0, error: 0 };
  for (const d of details) counts[runStatus(d.run)]++;
  const stateTexts = (['accepted', 'refused', 'in_progress', 'error'] as const).filter((k) => counts[k] > 0).map((k) => ({ k, text: t(`result.summaryState.${k}`, { count: counts[k] }) }));
  // One announcement for the page's results, once every file has its verdict ("3 files, 2 accepted, 1 refused"),
  // rather than one per file: the cards themselves are not live.
  const settled = details.length === ids.length && counts.in_progress === 0;
  const announcement = settled ? [t('result.summary', { count: ids.length }), ...stateTexts.map((s) => s.text)].join(', ') : '';

  return (
    <Stack gap="lg" maw={1100} mx="auto" w="100%">
      <PageHeader
        title={t('result.title')}
        description={t('result.description')}
        actions={
          <Group gap="sm">
            <Button component={Link} to="/ledes/history" variant="default" leftSection={<IconHistory size={16} aria-hidden="true" />}>
              {t('result.toHistory')}
            </Button>
            <Button component={Link} to="/ledes/upload" leftSection={<IconUpload size={16} aria-hidden="true" />}>
              {t('result.newCheck')}
            </Button>
          </Group>
        }
      />
      <LiveNotice show={live.interrupted} pollMs={POLL_INTERVAL_MS} />
      <VisuallyHidden role="status" aria-live="polite" aria-atomic="true" data-testid="result-announcement">
        {announcement}
      </VisuallyHidden>
      {ids.length > 1 && details.length > 0 && (
        <Group gap="xs" data-testid="result-summary">
          <Text size="sm" fw={600}>
            {t('result.summary', { count: ids.length })}
          </Text>
          {stateTexts.map(({ k, text }) => (
            <Badge key={k} variant="dot" color={k === 'accepted' ? 'teal' : k === 'in_progress' ? 'orange' : 'red'} tt="none" size="md">
              {text}
            </Badge>
          ))}
        </Group>
      )}
      {runs.map((q, i) =>
        q.data ? (
          <RunCard key={ids[i]} detail={q.data} />
        ) : q.isError ? (
          <MissingCard key={ids[i]} id={ids[i]!} error={q.error} />
        ) : (
          <Skeleton key={ids[i]} h={180} radius="lg" />
        ),
      )}
    </Stack>
  );
}
