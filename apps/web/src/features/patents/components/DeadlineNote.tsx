import { Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PatentRecordDto } from '@portal/contracts';
import { formatDay } from '../model.ts';

/** The engine's deadline of the annuity in words: surcharge-free end, grace end, and the later edge when an office's rule is unverified. */
export function DeadlineNote({ row }: { row: PatentRecordDto }) {
  const { t } = useTranslation('patents');
  const d = row.deadline;
  if (d === null || d.state === 'before_due') return null;
  const text =
    d.state === 'due'
      ? t('deadline.due', { date: formatDay(d.no_surcharge_end) })
      : d.state === 'grace'
        ? t('deadline.grace', { date: formatDay(d.grace_end) })
        : t('deadline.pastGrace', { date: formatDay(d.lost_after) });
  const unverified = d.extension_unverified && d.lost_after !== d.grace_end;
  return (
    <Text size="xs" c="dark.4" data-testid="deadline-note" data-state={d.state}>
      {text}
      {unverified && d.state !== 'past_grace' && (
        <Tooltip label={t('deadline.unverifiedHelp')} multiline w={280} withArrow>
          <span data-testid="deadline-unverified" tabIndex={0}>
            {' '}
            {t('deadline.unverified', { date: formatDay(d.lost_after) })}
          </span>
        </Tooltip>
      )}
    </Text>
  );
}
