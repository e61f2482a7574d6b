import { useMemo, useState } from 'react';
import { Badge, Button, Group, Modal, Paper, SegmentedControl, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import type { RenewalCallDto } from '@portal/contracts';
import { ApiError } from '../../lib/api.ts';
import { formatDay, formatNumber } from '../../lib/format.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { CardLine } from '../../components/list/CardLine.tsx';
import { ServerList } from '../../components/list/ServerList.tsx';
import { useServerList } from '../../components/list/useServerList.ts';
import { CallPreview } from './components/CallPreview.tsx';
import { CallSettings } from './components/CallSettings.tsx';
import { Totals } from './components/Totals.tsx';
import { CALLS_PAGE_SIZE, callsKey, callsQuery, runCalls, type CallState } from './callsApi.ts';

const col = createColumnHelper<RenewalCallDto>();
/** The server orders the calls (open first, by client code): no header sorts them. */
const SORT = { id: 'client_code', desc: false } as const;

function StepCell({ call: c }: { call: RenewalCallDto }) {
  const { t } = useTranslation('calls');
  return (
    <Group gap={4}>
      <span data-testid="call-step">{c.step ? t(`steps.${c.step}`) : t('steps.none')}</span>
      {c.held && (
        <Badge color="orange" variant="light" data-testid="call-held">
          {t('held')}
        </Badge>
      )}
      {c.closed_on && <Badge variant="light">{t('closedOn', { day: formatDay(c.closed_on) })}</Badge>}
    </Group>
  );
}

function ClientCell({ call: c }: { call: RenewalCallDto }) {
  return (
    <Stack gap={0} miw={0}>
      <Text fw={600} size="sm" className="portal-break" data-testid="call-client">
        {c.client_code}
      </Text>
      <Text size="xs" c="dark.4" className="portal-break">
        {c.cabinet}
      </Text>
    </Stack>
  );
}

function PreviewButton({ call: c, onPreview }: { call: RenewalCallDto; onPreview: (id: string) => void }) {
  const { t } = useTranslation('calls');
  return (
    <Button size="xs" variant="light" onClick={() => onPreview(c._id)} aria-label={t('previewOf', { client: c.client_code })} data-testid="call-preview">
      {t('preview')}
    </Button>
  );
}

/** "Instruct before", with "passed" once the server's today is after it. */
const instructText = (c: RenewalCallDto, t: (k: string, o?: Record<string, unknown>) => string) =>
  c.instruct_before === null ? null : c.instruct_before_passed ? t('instructPassed', { day: formatDay(c.instruct_before) }) : formatDay(c.instruct_before);

function InstructBefore({ call }: { call: RenewalCallDto }) {
  const { t } = useTranslation('calls');
  if (call.instruct_before === null) return <>—</>;
  return (
    <Text span size="sm" {...(call.instruct_before_passed ? { c: 'red.8', fw: 600 } : {})} data-testid="call-instruct-before">
      {instructText(call, t)}
    </Text>
  );
}

const nextText = (c: RenewalCallDto, t: (k: string, o?: Record<string, unknown>) => string) => (c.next_step ? t('nextOn', { step: t(`steps.${c.next_step}`), day: formatDay(c.next_step_on) }) : '—');

/** On a phone, one card per call (seven columns would scroll sideways). */
function CallCard({ call: c, onPreview }: { call: RenewalCallDto; onPreview: (id: string) => void }) {
  const { t } = useTranslation('calls');
  return (
    <Stack gap={6}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <ClientCell call={c} />
        <Totals call={c} />
      </Group>
      <Group gap={4}>
        <Text span c="dark.4" size="xs">
          {t('columns.step')}
        </Text>
        <Text span size="xs">
          <StepCell call={c} />
        </Text>
      </Group>
      <Text size="xs">
        <Text span c="dark.4" size="xs">
          {t('columns.next')}
        </Text>{' '}
        <span data-testid="call-next">{nextText(c, t)}</span>
      </Text>
      <CardLine label={t('columns.instructBefore')} value={instructText(c, t)} />
      <CardLine label={t('columns.items')} value={t('itemsCount', { open: formatNumber(c.open_items), items: formatNumber(c.items) })} />
      <Group justify="flex-end">
        <PreviewButton call={c} onPreview={onPreview} />
      </Group>
    </Stack>
  );
}

/** "Run now": the day's job (also run every day); it waits for the run and says what it did. */
function RunNowButton() {
  const { t } = useTranslation('calls');
  const queryClient = useQueryClient();
  const run = useMutation({
    mutationFn: runCalls,
    onSuccess: async (res) => {
      notifySuccess(res.outcome === 'completed' || res.outcome === 'unknown' ? t('run.done') : res.outcome === 'queued' ? t('run.queued') : t('run.failed'));
      await queryClient.invalidateQueries({ queryKey: callsKey });
    },
    onError: (e) => notifyError(t('run.error'), e instanceof ApiError && e.message ? e.message : t('errors.generic')),
  });
  return (
    <Button leftSection={<IconPlayerPlay size={16} aria-hidden="true" />} loading={run.isPending} onClick={() => run.mutate()} data-testid="calls-run-now">
      {t('run.now')}
    </Button>
  );
}

/**
 * Staff's renewal calls per client (issue 30 §3, decision 202): each call's last step, the next step and its
 * day, the totals per currency (a card per call on a phone); a preview of its lines with each cost part; "send
 * now" and "hold"; "run now" for the day's job; each firm's settings. Every date and amount comes from the server.
 */
export function RenewalCallsPage() {
  const { t } = useTranslation('calls');
  const [state, setState] = useState<CallState>('open');
  const list = useServerList<'client_code'>({ defaultSort: SORT, sorts: ['client_code'], defaultLimit: CALLS_PAGE_SIZE });
  const [previewId, setPreviewId] = useState<string | null>(null);
  const calls = useQuery(callsQuery(state, list.page));
  const columns = useMemo(
    () => [
      col.display({ id: 'client', header: () => t('columns.client'), enableSorting: false, cell: (c) => <ClientCell call={c.row.original} /> }),
      col.display({ id: 'step', header: () => t('columns.step'), enableSorting: false, cell: (c) => <StepCell call={c.row.original} /> }),
      col.display({ id: 'next', header: () => t('columns.next'), enableSorting: false, cell: (c) => <span data-testid="call-next">{nextText(c.row.original, t)}</span> }),
      col.display({ id: 'instruct_before', header: () => t('columns.instructBefore'), enableSorting: false, cell: (c) => <InstructBefore call={c.row.original} /> }),
      col.display({ id: 'items', header: () => t('columns.items'), enableSorting: false, cell: (c) => t('itemsCount', { open: formatNumber(c.row.original.open_items), items: formatNumber(c.row.original.items) }) }),
      col.display({ id: 'totals', header: () => t('columns.totals'), enableSorting: false, cell: (c) => <Totals call={c.row.original} /> }),
      col.display({ id: 'actions', header: () => <VisuallyHidden>{t('columns.actions')}</VisuallyHidden>, enableSorting: false, cell: (c) => <PreviewButton call={c.row.original} onPreview={setPreviewId} /> }),
    ],
    [t],
  );
  const data = calls.data?.calls ?? [];
  return (
    <Stack gap="xl" maw={1100} mx="auto" w="100%">
      <PageHeader title={t('title')} description={t('description')} actions={<RunNowButton />} />
      <Paper withBorder shadow="xs" p="md">
        <ServerList
          query={calls}
          state={list}
          rows={data}
          totalPages={calls.data?.meta.totalPages}
          columns={columns}
          card={(c) => <CallCard call={c} onPreview={setPreviewId} />}
          getRowId={(c) => c._id}
          testId="calls-table"
          rowTestId="call-row"
          rowProps={(c) => ({ 'data-client': c.client_code })}
          empty={
            <Text py="md" data-testid="calls-empty">
              {t('none')}
            </Text>
          }
          error={<LoadError message={t('loadError')} retryLabel={t('retry')} onRetry={() => void calls.refetch().catch(() => undefined)} testId="calls-load-error" />}
          filters={
            <SegmentedControl
              aria-label={t('state.label')}
              value={state}
              onChange={(v) => {
                setState(v);
                list.firstPage();
              }}
              data={(['open', 'closed', 'all'] as const).map((s) => ({ value: s, label: t(`state.${s}`) }))}
              data-testid="calls-state"
            />
          }
          minWidth={860}
          pagination={{ siblings: 1, testId: 'calls-pagination' }}
        />
      </Paper>
      <CallSettings />
      <Modal opened={previewId !== null} onClose={() => setPreviewId(null)} title={t('previewTitle')} size="xl">
        {previewId && <CallPreview id={previewId} />}
      </Modal>
    </Stack>
  );
}
