import { Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { RenewalCallLineDto } from '@portal/contracts';
import { ApiError } from '../../../lib/api.ts';
import { formatDay, formatMoney } from '../../../lib/format.ts';
import { msg } from '../../../lib/message.tsx';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { Loader } from '../../../components/Loader.tsx';
import { LoadError } from '../../../components/LoadError.tsx';
import { CardLine } from '../../../components/list/CardLine.tsx';
import { PHONE_QUERY } from '../../../components/list/ServerList.tsx';
import { callQuery, callsKey, holdCall, sendCall } from '../callsApi.ts';
import { Totals } from './Totals.tsx';

const SCROLL = { overflowX: 'auto', minWidth: 0, maxWidth: '100%', position: 'relative' } as const;

type T = (key: string, options?: Record<string, unknown>) => string;

const lineTotal = (l: RenewalCallLineDto, t: T) => (l.total !== null ? formatMoney(l.total, l.currency ?? 'EUR') : t('lines.noPrice'));

function LinePatent({ line: l }: { line: RenewalCallLineDto }) {
  const { t } = useTranslation('calls');
  return (
    <Stack gap={0} miw={0}>
      <Text size="sm" fw={600} className="portal-break">
        {l.reference_client ?? l.numero_depot ?? '—'}
      </Text>
      <Text size="xs" c="dark.4">
        {l.pays}
        {l.numero_depot ? ` · ${l.numero_depot}` : ''}
        {l.quantieme !== null ? ` · ${t('lines.year', { n: l.quantieme })}` : ''}
      </Text>
    </Stack>
  );
}

/** Each part of a line's cost (official fee, surcharge in grace, other parts when configured). */
function LineParts({ line: l }: { line: RenewalCallLineDto }) {
  const { t } = useTranslation('calls');
  return (
    <Stack gap={0} data-testid="call-line-parts">
      {l.parts.map((p) => (
        <Text size="sm" key={p.part}>
          {t('lines.partAmount', { part: t(`parts.${p.part}`, { defaultValue: p.part }), amount: formatMoney(p.amount, p.currency) })}
        </Text>
      ))}
    </Stack>
  );
}

function errorText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}

/** A call's preview: its open lines priced today with each part, the totals per currency, the steps sent; "send now" and "hold". */
export function CallPreview({ id }: { id: string }) {
  const { t } = useTranslation('calls');
  const queryClient = useQueryClient();
  const preview = useQuery(callQuery(id));
  const phone = useMediaQuery(PHONE_QUERY);
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
      {phone ? (
        <Stack gap="xs" component="section" aria-label={t('linesTitle')}>
          <Title order={3} size="h5">
            {t('linesTitle')}
          </Title>
          {lines.length === 0 && <Text size="sm">{t('noLines')}</Text>}
          <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }} data-testid="call-lines">
            {lines.map((l) => (
              <Paper key={`${l.patent_id}-${l.due_date}`} component="li" withBorder p="sm" radius="md" data-testid="call-line">
                <Stack gap={4}>
                  <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
                    <LinePatent line={l} />
                    <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
                      {lineTotal(l, t)}
                    </Text>
                  </Group>
                  <CardLine label={t('lines.due')} value={formatDay(l.due_date) + (l.in_grace ? ` (${t('lines.grace')})` : '')} />
                  <CardLine label={t('lines.instructBefore')} value={formatDay(l.instruct_before)} />
                  <LineParts line={l} />
                </Stack>
              </Paper>
            ))}
          </Stack>
        </Stack>
      ) : (
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
                <Table.Tr key={`${l.patent_id}-${l.due_date}`} data-testid="call-line">
                  <Table.Td>
                    <LinePatent line={l} />
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
                    <LineParts line={l} />
                  </Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {lineTotal(l, t)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
      )}
      <Group gap="xs">
        <Text size="sm" fw={600}>
          {t('totalsLabel')}
        </Text>
        <Totals call={call} testId="call-totals" />
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
