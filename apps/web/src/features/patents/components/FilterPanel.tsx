import { useState, type FormEvent } from 'react';
import { Button, Checkbox, Group, MultiSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PatentFilters } from '../api.ts';
import { OFFICES, parseDateFilter, parseReferences, type InstructionLabel } from '../model.ts';

export const DATE_FORMAT = 'YYYY-MM-DD;YYYY-MM-DD';

const split = (value: string) => (value ? value.split(';') : []);

/** The count of filters in use (shown on the toggle). */
export function activeFilters(filters: PatentFilters): number {
  return [filters.dates, filters.references, filters.instruction, filters.office, filters.schedule].filter((v) => v !== '').length;
}

/**
 * Spec §5 filters: due dates (one day or `from;to`, else the spec's alert), references separated by
 * `;`, instruction and office; and the patents that differ from the computed schedule. Applied on submit (Enter in a field or the button), reset at once.
 */
export function FilterPanel({ applied, labels, onApply }: { applied: PatentFilters; labels: InstructionLabel[]; onApply: (filters: PatentFilters) => void }) {
  const { t } = useTranslation('patents');
  const [dates, setDates] = useState(applied.dates);
  const [references, setReferences] = useState(applied.references);
  const [instruction, setInstruction] = useState<string[]>(split(applied.instruction));
  const [office, setOffice] = useState<string[]>(split(applied.office));
  const [mismatch, setMismatch] = useState(applied.schedule === 'mismatch');
  const [dateError, setDateError] = useState(false);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseDateFilter(dates);
    if (!parsed.ok) {
      setDateError(true);
      document.getElementById('patent-filter-dates')?.focus();
      return;
    }
    setDateError(false);
    onApply({ dates: parsed.value ?? '', references: parseReferences(references) ?? '', instruction: instruction.join(';'), office: office.join(';'), schedule: mismatch ? 'mismatch' : '' });
  };
  const reset = () => {
    setDates('');
    setReferences('');
    setInstruction([]);
    setOffice([]);
    setMismatch(false);
    setDateError(false);
    onApply({ dates: '', references: '', instruction: '', office: '', schedule: '' });
  };

  return (
    <form onSubmit={submit} noValidate data-testid="patent-filters" aria-label={t('filters.title')}>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm" verticalSpacing="md">
          <TextInput
            id="patent-filter-dates"
            label={t('filters.dates')}
            description={t('filters.datesHint')}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            placeholder={DATE_FORMAT}
            value={dates}
            onChange={(e) => {
              setDates(e.currentTarget.value);
              if (dateError) setDateError(false);
            }}
            error={dateError ? <span role="alert" data-testid="date-filter-error">{t('filters.datesInvalid')}</span> : undefined}
            data-testid="filter-dates"
            autoComplete="off"
          />
          <TextInput
            label={t('filters.references')}
            description={t('filters.referencesHint')}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            value={references}
            onChange={(e) => setReferences(e.currentTarget.value)}
            data-testid="filter-references"
            autoComplete="off"
          />
          <MultiSelect
            size="md"
            label={t('filters.instruction')}
            data={labels.map((l) => ({ value: String(l.id), label: l.title }))}
            value={instruction}
            onChange={setInstruction}
            clearable
            data-testid="filter-instruction"
          />
          <MultiSelect
            size="md"
            label={t('filters.office')}
            data={[...OFFICES]}
            value={office}
            onChange={setOffice}
            searchable
            clearable
            data-testid="filter-office"
          />
        </SimpleGrid>
        <Checkbox label={t('filters.schedule')} checked={mismatch} onChange={(e) => setMismatch(e.currentTarget.checked)} data-testid="filter-schedule" />
        <Group gap="sm" justify="flex-end">
          <Button variant="default" onClick={reset} data-testid="filters-reset">
            {t('filters.reset')}
          </Button>
          <Button type="submit" data-testid="filters-apply">
            {t('filters.apply')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
