import { Badge, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { PaymentLedgerState } from '@portal/contracts';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format.ts';
import { msg } from '../../../lib/message.tsx';
import { DownloadButton } from '../../../components/DownloadButton.tsx';
import { downloadReceipt, patentReceiptsQuery } from '../../receipts/receiptsApi.ts';
import { patentDetailQuery, patentEventsQuery, patentScheduleQuery } from '../api.ts';
import { formatDay, formatEuros, type InstructionLabel } from '../model.ts';

/** One section of the patent's detail: its heading, then nothing while loading, the load error, the empty text or the data. */
function DetailSection<T>({ title, testId, query, isEmpty, loadError, empty, children }: {
  title: string;
  testId: string;
  query: UseQueryResult<T>;
  isEmpty: (data: T) => boolean;
  loadError: string;
  empty: string;
  children: (data: T) => ReactNode;
}) {
  return (
    <Stack gap={6} component="section" data-testid={testId}>
      <Title order={3} size="h5">
        {title}
      </Title>
      {query.isPending ? null : query.isError ? (
        <Text size="sm" c="red.8" role="alert">
          {loadError}
        </Text>
      ) : isEmpty(query.data) ? (
        <Text size="sm" c="dark.4">
          {empty}
        </Text>
      ) : (
        children(query.data)
      )}
    </Stack>
  );
}

/** The annuity schedule from the engine, with each fee in euros; the next annuity in bold. */
export function PatentSchedule({ id }: { id: string }) {
  const { t, i18n } = useTranslation('patents');
  const schedule = useQuery(patentScheduleQuery(id));
  return (
    <DetailSection
      title={t('detail.sections.schedule')}
      testId="patent-schedule"
      query={schedule}
      isEmpty={(data) => data.annuities.length === 0}
      loadError={t('detail.scheduleLoadError')}
      empty={t('detail.scheduleEmpty')}
    >
      {(data) => (
        // A focusable region (keyboard scrolling on a phone), not a ScrollArea without a stop.
        <div tabIndex={0} role="region" aria-label={t('detail.sections.schedule')} style={{ overflowX: 'auto' }} data-testid="patent-schedule-table">
          <Table striped verticalSpacing={4} fz="sm" miw={420}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('detail.scheduleColumns.number')}</Table.Th>
                <Table.Th>{t('detail.scheduleColumns.due')}</Table.Th>
                <Table.Th>{t('detail.scheduleColumns.noSurchargeEnd')}</Table.Th>
                <Table.Th>{t('detail.scheduleColumns.graceEnd')}</Table.Th>
                <Table.Th>{t('detail.scheduleColumns.fee')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.annuities.map((a) => (
                <Table.Tr key={a.number} fw={a.number === data.next_number ? 700 : undefined} data-next={a.number === data.next_number || undefined}>
                  <Table.Td>{a.number}</Table.Td>
                  <Table.Td>{formatDay(a.due_date)}</Table.Td>
                  <Table.Td>{formatDay(a.no_surcharge_end)}</Table.Td>
                  <Table.Td>
                    {formatDay(a.grace_end)}
                    {a.lost_after !== a.grace_end && (
                      <Text span size="xs" c="dark.4" display="block" data-testid="schedule-lost-after">
                        {t('deadline.unverified', { date: formatDay(a.lost_after) })}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {a.fee_eur !== null ? formatEuros(a.fee_eur, i18n.language) : a.fee !== null ? `${a.fee} ${a.currency}` : ''}
                    {a.fee !== null && !a.fee_verified && (
                      <Text span size="xs" c="dark.4" display="block" data-testid="schedule-fee-unverified">
                        {t('detail.feeUnverified')}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {data.annuities.some((a) => a.fee !== null && !a.fee_verified) && (
            <Text size="xs" c="dark.4" mt={4} data-testid="schedule-fee-unverified-note">
              {t('detail.feeUnverifiedHelp')}
            </Text>
          )}
          {data.annuities.some((a) => a.extension_unverified) && (
            <Text size="xs" c="dark.4" mt={4} data-testid="schedule-unverified-note">
              {t('deadline.unverifiedHelp')}
            </Text>
          )}
          {data.annuities.some((a) => a.number === data.next_number && a.closing_days_provisional) && (
            <Text size="xs" c="dark.4" mt={4}>
              {t('deadline.provisional')}
            </Text>
          )}
        </div>
      )}
    </DetailSection>
  );
}

/** The audit trail of the patent's instruction, newest first. */
export function PatentHistory({ id, labels }: { id: string; labels: InstructionLabel[] }) {
  const { t } = useTranslation('patents');
  const events = useQuery(patentEventsQuery(id));
  const title = (instruction: number | null) => (instruction === null ? t('choice.none') : (labels.find((l) => l.id === instruction)?.title ?? String(instruction)));
  return (
    <DetailSection
      title={t('detail.sections.history')}
      testId="patent-history"
      query={events}
      isEmpty={(data) => data.length === 0}
      loadError={t('detail.historyLoadError')}
      empty={t('detail.historyEmpty')}
    >
      {(data) => (
        <Stack gap={6} component="ol" m={0} p={0} style={{ listStyle: 'none' }}>
          {data.map((e) => (
            <li key={e._id} data-testid="patent-event">
              <Text size="sm" fw={600}>
                {t('detail.historyLine', { from: title(e.old_instruction), to: title(e.new_instruction) })}
                {' · '}
                {t(`status.${e.new_status}`)}
              </Text>
              <Text size="xs" c="dark.4">
                {[formatDate(e.created), e.user?.name, t(`detail.sources.${e.source}`)].filter(Boolean).join(' · ')}
              </Text>
            </li>
          ))}
        </Stack>
      )}
    </DetailSection>
  );
}

/** The patent's payment receipts (issue 13), newest first, each with its download. */
export function PatentReceipts({ id }: { id: string }) {
  const { t } = useTranslation('patents');
  const receipts = useQuery(patentReceiptsQuery(id));
  return (
    <DetailSection
      title={t('detail.sections.receipts')}
      testId="patent-receipts"
      query={receipts}
      isEmpty={(data) => data.length === 0}
      loadError={t('detail.receiptsLoadError')}
      empty={t('detail.receiptsEmpty')}
    >
      {(data) => (
        <Stack gap={6} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
          {data.map((r) => (
            <Group key={r._id} component="li" justify="space-between" wrap="nowrap" gap="sm" data-testid="patent-receipt">
              <Stack gap={0} miw={0}>
                <Text size="sm" fw={600} className="portal-break">
                  {r.file_name}
                </Text>
                <Group gap={6}>
                  <Text size="xs" c="dark.4">
                    {[r.reference_inpi, r.reference_provider, formatDay(r.date_ordre_paiement)].filter(Boolean).join(' · ')}
                  </Text>
                  {r.needs_completion && (
                    <Badge variant="light" color="orange" c="orange.9" size="xs" radius="sm" tt="none">
                      {t('detail.receiptToComplete')}
                    </Badge>
                  )}
                </Group>
              </Stack>
              <DownloadButton download={() => downloadReceipt(r)} failure={() => msg('patents:detail.receiptDownloadError')} label={t('detail.receiptDownload', { name: r.file_name })} testId="patent-receipt-download" icon={IconDownload} />
            </Group>
          ))}
        </Stack>
      )}
    </DetailSection>
  );
}

/** The patent's payment ledger (decision 191): each year's state; a paid year says when and which receipt proves it. */
export function PatentLedger({ id }: { id: string }) {
  const { t } = useTranslation('patents');
  // The ledger's years come with the detail's answer (the modal's own query): one request, not two.
  const ledger = useQuery({ ...patentDetailQuery(id), select: (detail) => detail.ledger ?? [] });
  return (
    <DetailSection title={t('detail.sections.ledger')} testId="patent-ledger" query={ledger} isEmpty={(data) => data.length === 0} loadError={t('detail.ledgerLoadError')} empty={t('detail.ledgerEmpty')}>
      {(data) => (
        <Stack gap={4} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
          {data.map((y) => (
            <Group key={y.year} component="li" gap="xs" wrap="wrap" data-testid="patent-ledger-year">
              <Text size="sm" fw={600}>
                {t('ledger.year', { year: y.year })}
              </Text>
              <LedgerBadge state={y.state} />
              {y.paid_on !== null || y.receipt !== null ? (
                <Text size="sm" data-testid="patent-ledger-paid">
                  {[y.paid_on ? t('ledger.paidOn', { date: formatDay(y.paid_on) }) : null, y.receipt ? t('ledger.receipt', { name: y.receipt.file_name }) : null].filter(Boolean).join(', ')}
                </Text>
              ) : null}
            </Group>
          ))}
        </Stack>
      )}
    </DetailSection>
  );
}

const LEDGER_COLOR: Record<PaymentLedgerState, string> = { due: 'gray', instructed: 'blue', ordered: 'indigo', paid: 'green', confirmed: 'teal', abandoned: 'dark', lapsed: 'red' };

/** A ledger state as a small badge (the list's row and the modal). */
export function LedgerBadge({ state }: { state: PaymentLedgerState }) {
  const { t } = useTranslation('patents');
  return (
    <Badge variant="light" color={LEDGER_COLOR[state]} c={`${LEDGER_COLOR[state]}.9`} size="sm" radius="sm" tt="none" data-testid="ledger-state">
      {t(`ledger.states.${state}`)}
    </Badge>
  );
}
