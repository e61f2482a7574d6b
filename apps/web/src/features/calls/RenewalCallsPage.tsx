import { useState } from 'react';
import { Badge, Button, Group, Modal, Pagination, SegmentedControl, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { RenewalCallDto } from '@portal/contracts';
import { ApiError } from '../../lib/api.ts';
import { formatDay, formatNumber } from '../../lib/format.ts';
import { msg } from '../../lib/message.tsx';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { Loader } from '../../components/Loader.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { callQuery, callsKey, callsQuery, holdCall, sendCall, type CallState } from './callsApi.ts';

const SCROLL = { overflowX: 'auto', minWidth: 0, maxWidth: '100%', position: 'relative' } as const;

/**
 * Staff's renewal calls per client (issue 30 §3, decision 202): each call's last step, the next step and its
 * day, the totals per currency; a preview of its lines with each cost part; "send now" and "hold". Every
 * date and amount comes from the server.
 */
export function RenewalCallsPage() {
  const { t } = useTranslation('calls');
  const [state, setState] = useState<CallState>('open');
  const [page, setPage] = useState(1);
  const [previewId, setPreviewId] = useState<string | null>(null);
  const calls = useQuery(callsQuery(state, page));
  return (
    <Stack gap="xl" maw={1100} mx="auto" w="100%">
      <PageHeader title={t('title')} description={t('description')} />
      <SegmentedControl
        aria-label={t('state.label')}
        value={state}
        onChange={(v) => {
          setState(v);
          setPage(1);
        }}
        data={(['open', 'closed', 'all'] as const).map((s) => ({ value: s, label: t(`state.${s}`) }))}
        data-testid="calls-state"
        style={{ alignSelf: 'flex-start' }}
      />
      {calls.isPending && <Loader loading />}
      {calls.isError && <LoadError message={t('loadError')} retryLabel={t('retry')} onRetry={() => void calls.refetch().catch(() => undefined)} testId="calls-load-error" />}
      {calls.data && (
        <>
          <div tabIndex={0} role="region" aria-label={t('title')} style={SCROLL}>
            <Table verticalSpacing={6} fz="sm" data-testid="calls-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('columns.client')}</Table.Th>
                  <Table.Th>{t('columns.step')}</Table.Th>
                  <Table.Th>{t('columns.next')}</Table.Th>
                  <Table.Th>{t('columns.instructBefore')}</Table.Th>
                  <Table.Th ta="right">{t('columns.items')}</Table.Th>
                  <Table.Th ta="right">{t('columns.totals')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('columns.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {calls.data.calls.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={7} data-testid="calls-empty">
                      {t('none')}
                    </Table.Td>
                  </Table.Tr>
                )}
                {calls.data.calls.map((c) => (
                  <Table.Tr key={c._id} data-testid={`call-${c.client_code}`}>
                    <Table.Td>
                      <Text fw={600} size="sm">
                        {c.client_code}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {c.cabinet}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        <span data-testid="call-step">{c.step ? t(`steps.${c.step}`) : t('steps.none')}</span>
                        {c.held && (
                          <Badge color="orange" variant="light" data-testid="call-held">
                            {t('held')}
                          </Badge>
                        )}
                        {c.closed_on && <Badge variant="light">{t('closedOn', { day: formatDay(c.closed_on) })}</Badge>}
                      </Group>
                    </Table.Td>
                    <Table.Td data-testid="call-next">{c.next_step ? t('nextOn', { step: t(`steps.${c.next_step}`), day: formatDay(c.next_step_on) }) : '—'}</Table.Td>
                    <Table.Td>{c.instruct_before ? formatDay(c.instruct_before) : '—'}</Table.Td>
                    <Table.Td ta="right">{t('itemsCount', { open: formatNumber(c.open_items), items: formatNumber(c.items) })}</Table.Td>
                    <Table.Td ta="right">
                      <Totals call={c} />
                    </Table.Td>
                    <Table.Td>
                      <Button size="xs" variant="light" onClick={() => setPreviewId(c._id)} aria-label={t('previewOf', { client: c.client_code })} data-testid="call-preview">
                        {t('preview')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </div>
          {calls.data.meta.totalPages > 1 && <Pagination total={calls.data.meta.totalPages} value={page} onChange={setPage} />}
        </>
      )}
      <Modal opened={previewId !== null} onClose={() => setPreviewId(null)} title={t('previewTitle')} size="xl">
        {previewId && <Preview id={previewId} />}
      </Modal>
    </Stack>
  );
}

function Totals({ call }: { call: RenewalCallDto }) {
  if (call.totals.length === 0) return <>—</>;
  return (
    <Stack gap={0}>
      {call.totals.map((x) => (
        <span key={x.currency} style={{ whiteSpace: 'nowrap' }}>
          {formatNumber(Number(x.amount))} {x.currency}
        </span>
      ))}
    </Stack>
  );
}

function errorText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}

function Preview({ id }: { id: string }) {
  const { t } = useTranslation('calls');
  const queryClient = useQueryClient();
  const preview = useQuery(callQuery(id));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: callsKey }).catch(() => undefined);
  const send = useMutation({
    mutationFn: () => sendCall(id),
    onSuccess: (res) => {
      refresh();
      notifySuccess(t('sent', { step: t(`steps.${res.step}`), count: res.mails }));
    },
    onError: (e) => notifyError(t('errors.send'), errorText(e, t('errors.generic'))),
  });
  const hold = useMutation({
    mutationFn: (held: boolean) => holdCall(id, held),
    onSuccess: (res) => {
      refresh();
      notifySuccess(msg(res.call.held ? 'calls:heldDone' : 'calls:resumedDone'));
    },
    onError: (e) => notifyError(t('errors.hold'), errorText(e, t('errors.generic'))),
  });
  if (preview.isPending) return <Loader loading />;
  if (preview.isError) return <LoadError message={t('loadError')} retryLabel={t('retry')} onRetry={() => void preview.refetch().catch(() => undefined)} testId="call-load-error" />;
  const { call, lines, steps } = preview.data;
  return (
    <Stack gap="md" data-testid="call-preview-body">
      <Text size="sm">
        {t('previewIntro', { client: call.client_code, cabinet: call.cabinet, day: formatDay(call.opened_on) })}
      </Text>
      <div tabIndex={0} role="region" aria-label={t('linesTitle')} style={SCROLL}>
        <Table verticalSpacing={4} fz="sm" captionSide="top" data-testid="call-lines">
          <Table.Caption>{t('linesTitle')}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('lines.patent')}</Table.Th>
              <Table.Th>{t('lines.due')}</Table.Th>
              <Table.Th>{t('lines.instructBefore')}</Table.Th>
              <Table.Th>{t('lines.parts')}</Table.Th>
              <Table.Th ta="right">{t('lines.total')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {lines.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={5}>{t('noLines')}</Table.Td>
              </Table.Tr>
            )}
            {lines.map((l) => (
              <Table.Tr key={`${l.patent_id}-${l.due_date}`}>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {l.reference_client ?? l.numero_depot ?? '—'}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {l.pays}
                    {l.numero_depot ? ` · ${l.numero_depot}` : ''}
                    {l.quantieme !== null ? ` · ${t('lines.year', { n: l.quantieme })}` : ''}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {formatDay(l.due_date)}
                  {l.in_grace && (
                    <Badge ml={4} size="xs" color="red" variant="light">
                      {t('lines.grace')}
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>{formatDay(l.instruct_before)}</Table.Td>
                <Table.Td>
                  <Stack gap={0}>
                    {l.parts.map((p) => (
                      <span key={p.part} style={{ whiteSpace: 'nowrap' }}>
                        {t('lines.partAmount', { part: t(`parts.${p.part}`, { defaultValue: p.part }), amount: `${formatNumber(Number(p.amount))} ${p.currency}` })}
                      </span>
                    ))}
                  </Stack>
                </Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {l.total !== null ? `${formatNumber(Number(l.total))} ${l.currency ?? ''}` : t('lines.noPrice')}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
      <Group gap="xs">
        <Text size="sm" fw={600}>
          {t('totalsLabel')}
        </Text>
        <Totals call={call} />
      </Group>
      {steps.length > 0 && (
        <Stack gap={2} data-testid="call-steps">
          <Title order={3} size="h5">
            {t('stepsTitle')}
          </Title>
          {steps.map((s) => (
            <Text size="sm" key={`${s.step}-${s.sent_on}`}>
              {t('stepSent', { step: t(`steps.${s.step}`), day: formatDay(s.sent_on), count: s.mails })}
            </Text>
          ))}
        </Stack>
      )}
      <Group justify="flex-end">
        <Button variant="default" loading={hold.isPending} onClick={() => hold.mutate(!call.held)} data-testid="call-hold">
          {call.held ? t('resume') : t('hold')}
        </Button>
        <Button loading={send.isPending} onClick={() => send.mutate()} data-testid="call-send">
          {t('send')}
        </Button>
      </Group>
    </Stack>
  );
}
