import { Badge, Group, Select, Stack, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { PatentRecordDto } from '@portal/contracts';
import { isTreated, type ChosenRow, type InstructionLabel } from '../model.ts';
import classes from '../patents.module.css';

export function patentRef(row: Pick<PatentRecordDto, 'ReferenceClient' | 'noDepot' | 'NoPublication' | 'idagenda'>): string {
  return row.ReferenceClient ?? row.noDepot ?? row.NoPublication ?? row.idagenda;
}

/** The instruction given (treated rows): its title as text, in green, with its status. */
function CurrentInstruction({ row, labels }: { row: PatentRecordDto; labels: InstructionLabel[] }) {
  const { t } = useTranslation('patents');
  const given = labels.find((l) => l.id === row.id_instruction);
  if (!isTreated(row)) return null;
  return (
    <Stack gap={2}>
      <Text size="sm" fw={600} c="green.9" data-testid="instruction-current" title={given?.description}>
        {given?.title ?? t('choice.none')}
      </Text>
      <Text size="xs" c="dark.4">
        {t(`status.${row.instruction.traitement_instruction}`)}
      </Text>
    </Stack>
  );
}

/**
 * The per-row instruction choice (spec §4): choosing selects the row, choosing the same again
 * deselects (the select's own deselect), another replaces. A locked row shows why, on hover and on focus.
 */
export function InstructionChoice({
  row,
  labels,
  chosen,
  onChoose,
}: {
  row: PatentRecordDto;
  labels: InstructionLabel[];
  chosen: ChosenRow | undefined;
  onChoose: (row: PatentRecordDto, instruction: number | null) => void;
}) {
  const { t } = useTranslation('patents');
  const ref = patentRef(row);
  if (row.locked !== null) {
    const reason = t(`lock.${row.locked}`);
    return (
      <Stack gap={4}>
        <CurrentInstruction row={row} labels={labels} />
        <Tooltip label={reason} multiline w={260} withArrow events={{ hover: true, focus: true, touch: true }}>
          <span tabIndex={0} className={classes.locked} data-testid="instruction-locked" data-lock={row.locked}>
            <Badge variant="light" color="gray" c="dark.6" radius="sm" tt="none" leftSection={<IconLock size={12} aria-hidden="true" />}>
              {t('choice.locked')}
            </Badge>
            <VisuallyHidden>{t('choice.lockedLabel', { ref, reason })}</VisuallyHidden>
          </span>
        </Tooltip>
      </Stack>
    );
  }
  const value = chosen ? String(chosen.instructionBeingUpdated) : null;
  const description = labels.find((l) => String(l.id) === value)?.description;
  return (
    <Stack gap={4} className={classes.choice}>
      <CurrentInstruction row={row} labels={labels} />
      <Tooltip label={description} disabled={!description} multiline w={260} withArrow openDelay={300}>
        <Select
          size="xs"
          data={labels.map((l) => ({ value: String(l.id), label: l.title }))}
          value={value}
          onChange={(v) => onChoose(row, v === null ? null : Number(v))}
          onOptionSubmit={(v) => {
            // Choosing the chosen one again deselects (Select's allowDeselect answers null to onChange as well).
            if (v === value) onChoose(row, null);
          }}
          allowDeselect={false}
          placeholder={t('choice.placeholder')}
          aria-label={t('choice.label', { ref })}
          checkIconPosition="right"
          renderOption={({ option }) => {
            const l = labels.find((x) => String(x.id) === option.value);
            return (
              <Stack gap={0} title={l?.description}>
                <Text size="sm">{option.label}</Text>
                {l?.description && (
                  <Text size="xs" c="dark.4">
                    {l.description}
                  </Text>
                )}
              </Stack>
            );
          }}
          comboboxProps={{ width: 320, position: 'bottom-start' }}
          // Four options with their descriptions fit without an inner scroll box (axe: a scroll box needs a tab stop).
          withScrollArea={false}
          maxDropdownHeight={520}
          data-testid="instruction-choice"
          data-chosen={value ?? ''}
        />
      </Tooltip>
      {chosen && (
        <Group gap={4}>
          <Badge size="sm" variant="light" color="brand" c="brand.9" radius="sm" tt="none" data-testid="instruction-being">
            {t('choice.being')}
          </Badge>
        </Group>
      )}
    </Stack>
  );
}
