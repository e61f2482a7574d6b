import { Badge, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format.ts';
import { msg } from '../../../lib/message.tsx';
import { DownloadButton } from '../../../components/DownloadButton.tsx';
import { downloadReceipt, patentReceiptsQuery } from '../../receipts/receiptsApi.ts';
import { patentEventsQuery, patentScheduleQuery } from '../api.ts';
import { formatDay, formatEuros, type InstructionLabel } from '../model.ts';

function Heading({ children }: { children: string }) {
  return (
    <Title order={3} size="h5">
      {children}
    </Title>
  );
}

/** The annuity schedule from the engine, with each fee in euros; the next annuity in bold. */
export function PatentSchedule({ id }: { id: string }) {
  const { t, i18n } = useTranslation('patents');
  const schedule = useQuery(patentScheduleQuery(id));
  const data = schedule.data;
  return (
    <Stack gap={6} component="section" data-testid="patent-schedule">
      <Heading>{t('detail.sections.schedule')}</Heading>
      {schedule.isPending ? null : schedule.isError ? (
        <Text size="sm" c="red.8" role="alert">
          {t('detail.scheduleLoadError')}
        </Text>
      ) : !data || data.annuities.length === 0 ? (
        <Text size="sm" c="dark.4">
          {t('detail.scheduleEmpty')}
        </Text>
      ) : (
        // A focusable region (keyboard scrolling on a phone), not a ScrollArea without a stop.
        <div tabIndex={0} role="region" aria-label={t('detail.sections.schedule')} style={{ overflowX: 'auto' }} data-testid="patent-schedule-table">
          <Table striped verticalSpacing={4} fz="sm" miw={420}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('detail.scheduleColumns.number')}</Table.Th>
                <Table.Th>{t('detail.scheduleColumns.due')}</Table.Th>
                <Table.Th>{t('detail.scheduleColumns.graceEnd')}</Table.Th>
                <Table.Th>{t('detail.scheduleColumns.fee')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.annuities.map((a) => (
                <Table.Tr key={a.number} fw={a.number === data.next_number ? 700 : undefined} data-next={a.number === data.next_number || undefined}>
                  <Table.Td>{a.number}</Table.Td>
                  <Table.Td>{formatDay(a.due_date)}</Table.Td>
                  <Table.Td>{formatDay(a.grace_end)}</Table.Td>
                  <Table.Td>{a.fee_eur !== null ? formatEuros(a.fee_eur, i18n.language) : a.fee !== null ? `${a.fee} ${a.currency}` : ''}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
      )}
    </Stack>
  );
}

/** The audit trail of the patent's instruction, newest first. */
export function PatentHistory({ id, labels }: { id: string; labels: InstructionLabel[] }) {
  const { t } = useTranslation('patents');
  const events = useQuery(patentEventsQuery(id));
  const title = (instruction: number | null) => (instruction === null ? t('choice.none') : (labels.find((l) => l.id === instruction)?.title ?? String(instruction)));
  return (
    <Stack gap={6} component="section" data-testid="patent-history">
      <Heading>{t('detail.sections.history')}</Heading>
      {events.isPending ? null : events.isError ? (
        <Text size="sm" c="red.8" role="alert">
          {t('detail.historyLoadError')}
        </Text>
      ) : events.data.length === 0 ? (
        <Text size="sm" c="dark.4">
          {t('detail.historyEmpty')}
        </Text>
      ) : (
        <Stack gap={6} component="ol" m={0} p={0} style={{ listStyle: 'none' }}>
          {events.data.map((e) => (
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
    </Stack>
  );
}

/** The patent's payment receipts (issue 13), newest first, each with its download. */
export function PatentReceipts({ id }: { id: string }) {
  const { t } = useTranslation('patents');
  const receipts = useQuery(patentReceiptsQuery(id));
  return (
    <Stack gap={6} component="section" data-testid="patent-receipts">
      <Heading>{t('detail.sections.receipts')}</Heading>
      {receipts.isPending ? null : receipts.isError ? (
        <Text size="sm" c="red.8" role="alert">
          {t('detail.receiptsLoadError')}
        </Text>
      ) : receipts.data.length === 0 ? (
        <Text size="sm" c="dark.4">
          {t('detail.receiptsEmpty')}
        </Text>
      ) : (
        <Stack gap={6} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
          {receipts.data.map((r) => (
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
    </Stack>
  );
}
