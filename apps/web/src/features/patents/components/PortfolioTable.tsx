import { useMemo, type ReactNode } from 'react';
import { ActionIcon, Group, Paper, ScrollArea, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { createColumnHelper, type SortingState } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import type { PatentRecordDto } from '@portal/contracts';
import { SortableTable } from '../../../components/SortableTable.tsx';
import { formatDay, formatEuros, rowTone, type InstructionLabel, type RowTone, type Selection } from '../model.ts';
import { DeadlineNote } from './DeadlineNote.tsx';
import { InstructionChoice, patentRef } from './InstructionChoice.tsx';
import { ScheduleMismatchFlag } from './ScheduleMismatch.tsx';
import classes from '../patents.module.css';

const col = createColumnHelper<PatentRecordDto>();

export interface PortfolioTableProps {
  rows: PatentRecordDto[];
  labels: InstructionLabel[];
  selection: Selection;
  onChoose: (row: PatentRecordDto, instruction: number | null) => void;
  onDetails: (row: PatentRecordDto) => void;
  sorting: SortingState;
  onSortingChange: (sorting: SortingState) => void;
  empty: ReactNode;
  phone: boolean;
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
    </Stack>
  );
}

/** The portfolio page: a table on a desktop, one card per patent on a phone. Sorting is the server's. */
export function PortfolioTable({ rows, labels, selection, onChoose, onDetails, sorting, onSortingChange, empty, phone }: PortfolioTableProps) {
  const { t, i18n } = useTranslation('patents');
  const lang = i18n.language;
  const columns = useMemo(
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

  if (phone) {
    if (rows.length === 0) return <>{empty}</>;
    return (
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" component="ul" className={classes.cards} data-testid="patents-table">
        {rows.map((row) => {
          const tone = rowTone(row);
          return (
            <Paper
              key={row._id}
              component="li"
              withBorder
              p="sm"
              radius="md"
              className={classes.card}
              data-tone={tone}
              data-selected={selection.has(row.idagenda) || undefined}
              data-testid="patent-row"
              data-idagenda={row.idagenda}
            >
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
            </Paper>
          );
        })}
      </SimpleGrid>
    );
  }

  return (
    <ScrollArea type="auto">
      <SortableTable
        data={rows}
        columns={columns}
        manualSorting={{ sorting, onSortingChange }}
        rowTestId="patent-row"
        testId="patents-table"
        empty={empty}
        minWidth={940}
        getRowId={(r) => r._id}
        rowProps={(r) => ({
          className: classes.row,
          'data-tone': rowTone(r),
          'data-selected': selection.has(r.idagenda) ? 'true' : undefined,
          'data-idagenda': r.idagenda,
        })}
      />
    </ScrollArea>
  );
}
