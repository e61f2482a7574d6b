import { useMemo } from 'react';
import { ActionIcon, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { createColumnHelper } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import type { PatentRecordDto } from '@portal/contracts';
import { formatDay, formatEuros, rowTone, type InstructionLabel, type RowTone, type Selection } from '../model.ts';
import { DeadlineNote } from './DeadlineNote.tsx';
import { LedgerBadge } from './PatentExtras.tsx';

/** The ledger states the row names beside its due date (the others the instruction already says). */
const SHOWN_LEDGER_STATES: ReadonlySet<string> = new Set(['paid', 'confirmed', 'lapsed', 'abandoned']);
import { InstructionChoice, patentRef } from './InstructionChoice.tsx';
import { ScheduleMismatchFlag } from './ScheduleMismatch.tsx';
import classes from '../patents.module.css';

const col = createColumnHelper<PatentRecordDto>();

/** What a portfolio row shows and does: the instruction labels, the selection, the choice and the detail. */
export interface PortfolioRowProps {
  labels: InstructionLabel[];
  selection: Selection;
  onChoose: (row: PatentRecordDto, instruction: number | null) => void;
  onDetails: (row: PatentRecordDto) => void;
}

/** The tone in words, next to the reference: colour is never the only cue (WCAG 1.4.1). */
function ToneBadge({ tone }: { tone: RowTone }) {
  const { t } = useTranslation('patents');
  if (tone === 'none') return null;
  const colour = tone === 'treated' ? 'green' : tone === 'grace' ? 'orange' : 'yellow';
  return (
    <Text size="xs" fw={600} c={`${colour}.9`} data-testid="row-tone" data-tone={tone}>
      {t(`tone.${tone}`)}
    </Text>
  );
}

function DetailsButton({ row, onDetails }: { row: PatentRecordDto; onDetails: (row: PatentRecordDto) => void }) {
  const { t } = useTranslation('patents');
  const label = t('detail.open', { ref: patentRef(row) });
  return (
    <Tooltip label={label} withArrow>
      <ActionIcon variant="subtle" size={36} aria-label={label} onClick={() => onDetails(row)} data-testid="patent-details">
        <IconInfoCircle size={20} aria-hidden="true" />
      </ActionIcon>
    </Tooltip>
  );
}

function DueCell({ row }: { row: PatentRecordDto }) {
  const { t } = useTranslation('patents');
  return (
    <Stack gap={0}>
      <Group gap={4} wrap="nowrap">
        <Text size="sm" className={classes.nowrap} data-testid="due-date">
          {formatDay(row.DateEcheance)}
        </Text>
        <ScheduleMismatchFlag row={row} />
      </Group>
      {row.DateLimite && (
        // The label may wrap between its words ("Instruction deadline" is longer than "Limit date" was); the day never does.
        <Text size="xs" c="dark.4">
          {t('columns.limitDate')} <span className={classes.nowrap}>{formatDay(row.DateLimite)}</span>
        </Text>
      )}
      <DeadlineNote row={row} />
      {row.renewal_call && (
        // Issue 30 §3 (decision 202): the renewal call this annuity belongs to, and its "instruct before" day from the server.
        <Text size="xs" c="dark.4" data-testid="renewal-call-note">
          {t('renewalCall.instructBefore')} <span className={classes.nowrap}>{formatDay(row.renewal_call.instruct_before)}</span>
        </Text>
      )}
      {row.ledger_state && SHOWN_LEDGER_STATES.has(row.ledger_state) && <LedgerBadge state={row.ledger_state} />}
    </Stack>
  );
}

/** The portfolio's columns on a desktop (the shared list's table; sorting is the server's). */
export function usePortfolioColumns({ labels, selection, onChoose, onDetails }: PortfolioRowProps) {
  const { t, i18n } = useTranslation('patents');
  const lang = i18n.language;
  return useMemo(
    () => [
      col.display({
        id: 'instruction',
        header: () => t('columns.instruction'),
        cell: (c) => <InstructionChoice row={c.row.original} labels={labels} chosen={selection.get(c.row.original.idagenda)} onChoose={onChoose} />,
      }),
      col.accessor('ReferenceClient', {
        id: 'ReferenceClient',
        header: () => t('columns.reference'),
        cell: (c) => (
          <Stack gap={4} align="flex-start">
            {/* Cut to one line so a long reference never pushes the other columns away; whole on hover and in the detail. */}
            <Text size="sm" fw={600} className={classes.cut} title={c.row.original.ReferenceClient ?? undefined} data-testid="patent-ref">
              {c.row.original.ReferenceClient ?? ''}
            </Text>
            <ToneBadge tone={rowTone(c.row.original)} />
          </Stack>
        ),
      }),
      col.accessor('noDepot', {
        id: 'noDepot',
        header: () => t('columns.numbers'),
        cell: (c) => (
          <Stack gap={0}>
            <Text size="sm" className={classes.nowrap}>
              {c.row.original.noDepot ?? ''}
            </Text>
            <Text size="xs" c="dark.4" className={classes.nowrap}>
              {c.row.original.NoPublication ?? ''}
            </Text>
          </Stack>
        ),
      }),
      col.accessor('Pays', { id: 'Pays', header: () => t('columns.office') }),
      col.accessor('Quantieme', { id: 'Quantieme', header: () => t('columns.quantieme'), cell: (c) => c.getValue() ?? '' }),
      col.accessor('DateEcheance', { id: 'DateEcheance', header: () => t('columns.dueDate'), cell: (c) => <DueCell row={c.row.original} /> }),
      col.accessor('cost', { id: 'cost', header: () => t('columns.cost'), cell: (c) => <span className={classes.nowrap}>{formatEuros(c.getValue(), lang)}</span> }),
      col.display({ id: 'details', header: () => t('columns.details'), cell: (c) => <DetailsButton row={c.row.original} onDetails={onDetails} /> }),
    ],
    [t, lang, labels, selection, onChoose, onDetails],
  );
}

/** A table row's tone and selection (styles and tests read them). */
export function portfolioRowProps(row: PatentRecordDto, selection: Selection) {
  return { className: classes.row, 'data-tone': rowTone(row), 'data-selected': selection.has(row.idagenda) ? 'true' : undefined, 'data-idagenda': String(row.idagenda) };
}

/** A card's tone and selection. */
export function portfolioCardProps(row: PatentRecordDto, selection: Selection) {
  return { ...portfolioRowProps(row, selection), className: classes.card };
}

/** The body of one patent's card (below the table's width): reference, numbers, due date, year, cost, tone and the choice. */
export function PortfolioCard({ row, labels, selection, onChoose, onDetails }: PortfolioRowProps & { row: PatentRecordDto }) {
  const { t, i18n } = useTranslation('patents');
  const lang = i18n.language;
  const tone = rowTone(row);
  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={2}>
          <Text fw={650} size="sm" className="portal-break" lineClamp={2} title={row.ReferenceClient ?? undefined} data-testid="patent-ref">
            {row.ReferenceClient ?? ''}
          </Text>
          <Text size="xs" c="dark.4">
            {[row.Pays, row.noDepot, row.NoPublication].filter(Boolean).join(' · ')}
          </Text>
        </Stack>
        <DetailsButton row={row} onDetails={onDetails} />
      </Group>
      <Group gap="md" wrap="wrap">
        <Stack gap={0}>
          <Text size="xs" c="dark.4">
            {t('columns.dueDate')}
          </Text>
          <DueCell row={row} />
        </Stack>
        {row.Quantieme !== null && (
          <Stack gap={0}>
            <Text size="xs" c="dark.4">
              {t('columns.quantieme')}
            </Text>
            <Text size="sm">{row.Quantieme}</Text>
          </Stack>
        )}
        {row.cost !== null && (
          <Stack gap={0}>
            <Text size="xs" c="dark.4">
              {t('columns.cost')}
            </Text>
            <Text size="sm">{formatEuros(row.cost, lang)}</Text>
          </Stack>
        )}
      </Group>
      <ToneBadge tone={tone} />
      <InstructionChoice row={row} labels={labels} chosen={selection.get(row.idagenda)} onChoose={onChoose} />
    </Stack>
  );
}
