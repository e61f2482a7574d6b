import { Alert, Group, Text, Tooltip } from '@mantine/core';
import { IconCalendarExclamation } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { PatentRecordDto } from '@portal/contracts';
import { formatDay } from '../model.ts';

/*
 * Issue 25 §2: a record that disagrees with the schedule the engine computes is stored but flagged.
 * The server says how (`schedule_mismatch`: the engine's annuity number and due date); the screen only
 * words it, with dates written in the page's language like the rest of the screen.
 */

/** "differs from the computed schedule: annuity 9 due 31-03-2026", in the screen's language. */
export function useScheduleMismatchText(row: Pick<PatentRecordDto, 'schedule_mismatch'>): string | null {
  const { t } = useTranslation('patents');
  const m = row.schedule_mismatch;
  return m ? t('schedule.mismatch', { number: m.Quantieme, date: formatDay(m.DateEcheance) }) : null;
}

/** The flag on a row of the list: an icon with the message as its accessible name and tooltip. */
export function ScheduleMismatchFlag({ row }: { row: PatentRecordDto }) {
  const text = useScheduleMismatchText(row);
  if (text === null) return null;
  return (
    <Tooltip label={text} withArrow multiline maw={280}>
      <Group gap={4} wrap="nowrap" component="span" role="img" aria-label={text} title={text} tabIndex={0} data-testid="schedule-mismatch" data-code={row.schedule_mismatch!.code}>
        <IconCalendarExclamation size={18} color="var(--mantine-color-orange-9)" aria-hidden="true" />
      </Group>
    </Tooltip>
  );
}

/** The explanation in the detail modal: what the engine says, and why it matters. */
export function ScheduleMismatchNotice({ row }: { row: PatentRecordDto }) {
  const { t } = useTranslation('patents');
  const text = useScheduleMismatchText(row);
  if (text === null) return null;
  return (
    <Alert color="orange" variant="light" icon={<IconCalendarExclamation size={18} aria-hidden="true" />} title={t('schedule.title')} data-testid="schedule-mismatch-detail">
      <Text size="sm" fw={600}>
        {text}
      </Text>
      <Text size="sm">{t(`schedule.explain.${row.schedule_mismatch!.code}`)}</Text>
    </Alert>
  );
}
