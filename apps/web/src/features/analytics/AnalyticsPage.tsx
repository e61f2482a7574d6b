import { useState, type FormEvent } from 'react';
import { Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { SPEND_DIMENSIONS, type SpendDimension, type SpendGroup } from '@portal/contracts';
import { LoadError } from '../../components/LoadError.tsx';
import { ApiError } from '../../lib/api.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { DataTable, money, REFUSED_COLOUR, SPEND_COLOUR, SpendChart } from './components/SpendChart.tsx';
import { downloadSpend, spendQuery, type SpendFilters } from './analyticsApi.ts';

const FILTERS = ['law_firm', 'client', 'matter', 'timekeeper', 'task'] as const;
/** Bars shown per chart (the table and the export carry the first 50). */
const CHART_BARS = 10;

export function AnalyticsPage() {
  const { t } = useTranslation('analytics');
  const [draft, setDraft] = useState<SpendFilters>({});
  const [filters, setFilters] = useState<SpendFilters>({});
  const query = useQuery(spendQuery(filters));
  const [exporting, setExporting] = useState<'xlsx' | 'csv' | null>(null);

  /** "2026-03" → "Mar 2026" / "mars 2026": month names from the texts, no date computed. */
  const monthLabel = (key: string) => {
    const m = /^(\d{4})-(\d{2})$/.exec(key);
    return m ? `${t(`months.${Number(m[2])}`)} ${m[1]}` : t('noDate');
  };
  const labelOf = (d: SpendDimension) => (g: SpendGroup) => {
    if (d === 'month') return monthLabel(g.key);
    if (g.key === '') return t('none');
    return g.label ? `${g.label} (${g.key})` : g.key;
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFilters({ ...draft });
  };
  const exportAs = async (format: 'xlsx' | 'csv') => {
    setExporting(format);
    try {
      await downloadSpend(filters, format);
    } finally {
      setExporting(null);
    }
  };
  const data = query.data;

  return (
    <Stack gap="lg">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <Group gap="xs">
            <Button variant="default" leftSection={<IconDownload size={16} aria-hidden="true" />} loading={exporting === 'xlsx'} onClick={() => void exportAs('xlsx').catch(() => undefined)} data-testid="analytics-export-xlsx">
              {t('exportXlsx')}
            </Button>
            <Button variant="default" leftSection={<IconDownload size={16} aria-hidden="true" />} loading={exporting === 'csv'} onClick={() => void exportAs('csv').catch(() => undefined)} data-testid="analytics-export-csv">
              {t('exportCsv')}
            </Button>
          </Group>
        }
      />
      <Paper withBorder p="md" component="form" onSubmit={submit} aria-label={t('filters.title')}>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
          <TextInput label={t('filters.from')} placeholder="2026-01" value={draft.from ?? ''} onChange={(e) => setDraft({ ...draft, from: e.currentTarget.value })} data-testid="analytics-from" />
          <TextInput label={t('filters.to')} placeholder="2026-12" value={draft.to ?? ''} onChange={(e) => setDraft({ ...draft, to: e.currentTarget.value })} data-testid="analytics-to" />
          {FILTERS.map((f) => (
            <TextInput key={f} label={t(`dimensions.${f}`)} value={draft[f] ?? ''} onChange={(e) => setDraft({ ...draft, [f]: e.currentTarget.value })} data-testid={`analytics-${f}`} />
          ))}
        </SimpleGrid>
        <Group mt="sm" gap="xs">
          <Button type="submit" data-testid="analytics-apply">{t('filters.apply')}</Button>
          <Button variant="subtle" onClick={() => { setDraft({}); setFilters({}); }}>{t('filters.reset')}</Button>
        </Group>
      </Paper>
      {query.isError && <LoadError message={query.error instanceof ApiError && query.error.status === 400 ? query.error.message : t('loadError')} retryLabel={t('retry')} onRetry={() => void query.refetch().catch(() => undefined)} testId="analytics-load-error" />}
      {data && (
        <>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" data-testid="analytics-totals">
            <Paper withBorder p="md">
              <Text size="sm" c="dimmed">{t('columns.spend')}</Text>
              <Text fw={700} size="xl" c={SPEND_COLOUR} data-testid="analytics-total-spend">{money(data.totals.spend)}</Text>
            </Paper>
            <Paper withBorder p="md">
              <Text size="sm" c="dimmed">{t('columns.refused')}</Text>
              <Text fw={700} size="xl" c={REFUSED_COLOUR} data-testid="analytics-total-refused">{money(data.totals.refused)}</Text>
            </Paper>
            <Paper withBorder p="md">
              <Text size="sm" c="dimmed">{t('columns.over')}</Text>
              <Text fw={700} size="xl" data-testid="analytics-total-over">{money(data.totals.over_guidelines)}</Text>
            </Paper>
          </SimpleGrid>
          <Text size="sm" c="dimmed">{t('legend')}</Text>
          {SPEND_DIMENSIONS.map((d) => {
            const groups = data.groups[d].top;
            const label = labelOf(d);
            return (
              <Paper withBorder p="md" key={d} component="section" aria-labelledby={`analytics-${d}-title`} data-testid={`analytics-section-${d}`}>
                <Title order={2} size="h4" id={`analytics-${d}-title`} mb="sm">
                  {t(`charts.${d}`)}
                </Title>
                <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
                  <SpendChart id={d} title={t(`charts.${d}`)} groups={d === 'month' ? groups : groups.slice(0, CHART_BARS)} labelOf={label} />
                  <DataTable groups={groups} labelOf={label} keyHeader={t(`dimensions.${d}`)} />
                </SimpleGrid>
                {data.groups[d].others && <Text size="sm" c="dimmed" mt="xs">{t('others', { count: data.groups[d].count - groups.length, spend: money(data.groups[d].others.spend) })}</Text>}
              </Paper>
            );
          })}
        </>
      )}
    </Stack>
  );
}
