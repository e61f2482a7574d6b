import { useState } from 'react';
import { Alert, Button, Group, Loader, NumberInput, Paper, Select, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FORECAST_MAX_YEARS, FORECAST_OFFICES, FORECAST_ORIGIN_FILTERS } from '@portal/contracts';
import { LoadError } from '../../components/LoadError.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { msg } from '../../lib/message.tsx';
import { notifyError } from '../../lib/notify.ts';
import { ForecastChart } from './components/ForecastChart.tsx';
import { ForecastEurTable } from './components/ForecastEurTable.tsx';
import { ForecastTable } from './components/ForecastTable.tsx';
import { downloadForecast, forecastQuery, type ForecastFilters } from './forecastApi.ts';
import { formatMoney } from '../../lib/format.ts';

/** Issue 30 §2: the renewal budget, per year (a stacked bar per office and currency, the same figures in a table) and per month. */
export function ForecastPage() {
  const { t, i18n } = useTranslation('forecast');
  const lang = i18n.language;
  const [years, setYears] = useState(FORECAST_MAX_YEARS);
  const [office, setOffice] = useState<string | null>(null);
  const [origin, setOrigin] = useState<string | null>(null);
  const [clientCode, setClientCode] = useState('');
  const [code] = useDebouncedValue(clientCode, 400);
  const [whatIf, setWhatIf] = useState(false);
  const [olderThan, setOlderThan] = useState(10);
  const filters: ForecastFilters = { years, office, origin, clientCode: code, abandonOlderThan: whatIf ? olderThan : null };
  const forecast = useQuery(forecastQuery(filters));
  const data = forecast.data;
  const [busy, setBusy] = useState<'xlsx' | 'csv' | null>(null);

  const exportAs = (format: 'xlsx' | 'csv') => {
    setBusy(format);
    downloadForecast(filters, format)
      .catch((error: unknown) => {
        console.error('forecast export failed', error);
        notifyError(msg('forecast:export.error'));
      })
      .finally(() => setBusy(null));
  };
  const all = t('filters.all');

  return (
    <Stack gap="lg" maw={1200} mx="auto" w="100%">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <Group gap="sm">
            {(['xlsx', 'csv'] as const).map((format) => (
              <Button key={format} variant="light" leftSection={<IconDownload size={16} aria-hidden="true" />} loading={busy === format} onClick={() => exportAs(format)} data-testid={`forecast-export-${format}`}>
                {t(`export.${format}`)}
              </Button>
            ))}
          </Group>
        }
      />
      <Paper withBorder shadow="xs" p="md" component="section" aria-label={t('filters.title')}>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
          <Select
            label={t('filters.years')}
            data={Array.from({ length: FORECAST_MAX_YEARS }, (_, i) => String(i + 1))}
            value={String(years)}
            onChange={(v) => setYears(Number(v ?? FORECAST_MAX_YEARS))}
            allowDeselect={false}
            data-testid="forecast-years"
          />
          <Select
            label={t('filters.office')}
            data={[{ value: '', label: all }, ...FORECAST_OFFICES.map((o) => ({ value: o, label: o }))]}
            value={office ?? ''}
            onChange={(v) => setOffice(v ? v : null)}
            allowDeselect={false}
            data-testid="forecast-office"
          />
          <Select
            label={t('filters.origin')}
            data={[{ value: '', label: all }, ...FORECAST_ORIGIN_FILTERS.map((o) => ({ value: o, label: t(`filters.origins.${o}`) }))]}
            value={origin ?? ''}
            onChange={(v) => setOrigin(v ? v : null)}
            allowDeselect={false}
            data-testid="forecast-origin"
          />
          <TextInput label={t('filters.clientCode')} value={clientCode} onChange={(e) => setClientCode(e.currentTarget.value)} maxLength={100} data-testid="forecast-client-code" />
        </SimpleGrid>
        <Group gap="md" mt="md" align="flex-end" wrap="wrap">
          <Switch label={t('filters.whatIf')} checked={whatIf} onChange={(e) => setWhatIf(e.currentTarget.checked)} data-testid="forecast-what-if" />
          <NumberInput
            label={t('filters.whatIfYears')}
            value={olderThan}
            onChange={(v) => setOlderThan(Math.min(20, Math.max(1, Number(v) || 1)))}
            min={1}
            max={20}
            w={120}
            disabled={!whatIf}
            data-testid="forecast-what-if-years"
          />
        </Group>
      </Paper>
      {forecast.isError && !data && (
        <LoadError message={t('loadError')} retryLabel={t('retry')} onRetry={() => void forecast.refetch().catch(() => undefined)} testId="forecast-load-error" />
      )}
      {!data && forecast.isPending && (
        <Group gap="sm" role="status">
          <Loader size="sm" />
          <Text>{t('loading')}</Text>
        </Group>
      )}
      {data && (
        <Stack gap="lg" aria-busy={forecast.isFetching} data-testid="forecast-result">
          <Stack gap={4}>
            <Text fw={600} data-testid="forecast-totals">
              {t('totals', { totals: data.totals.length === 0 ? '–' : data.totals.map((x) => formatMoney(x.total, x.currency, { whole: true, lang })).join(' · ') })}
            </Text>
            {data.totals.length > 0 && (
              <Text fw={600} data-testid="forecast-totals-eur">
                {t('totalsEur', { amount: formatMoney(data.eur.total, 'EUR', { whole: true, lang }) })}
              </Text>
            )}
          </Stack>
          {data.updating && (
            <Alert color="blue" variant="light" c="dark.7" role="status" data-testid="forecast-updating">
              {t('updating')}
            </Alert>
          )}
          {data.unpriced > 0 && (
            <Alert color="orange" variant="light" c="dark.7" data-testid="forecast-unpriced">
              {t('unpriced', { count: data.unpriced })}
            </Alert>
          )}
          {data.totals.length === 0 ? (
            <Text c="dimmed" data-testid="forecast-empty">
              {t('empty')}
            </Text>
          ) : (
            <Paper withBorder shadow="xs" p="md">
              <SimpleGrid cols={{ base: 1, md: Math.min(3, data.totals.length) }} spacing="lg">
                {data.totals.map((x) => (
                  <ForecastChart key={x.currency} years={data.years} currency={x.currency} offices={data.offices} />
                ))}
              </SimpleGrid>
            </Paper>
          )}
          <Paper withBorder shadow="xs" p="md">
            <ForecastTable periods={data.years} caption={t('table.caption')} firstHeader={t('table.office')} testId="forecast-table" />
          </Paper>
          {data.totals.length > 0 && (
            <Paper withBorder shadow="xs" p="md" component="section" aria-labelledby="forecast-eur-title">
              <Title order={2} size="h4" mb="sm" id="forecast-eur-title">
                {t('eur.title')}
              </Title>
              {data.eur.unconverted > 0 && (
                <Alert color="orange" variant="light" c="dark.7" mb="sm" data-testid="forecast-unconverted">
                  {t('eur.unconverted', { count: data.eur.unconverted })}
                </Alert>
              )}
              <ForecastEurTable periods={data.years} all={data.eur} testId="forecast-eur-table" />
            </Paper>
          )}
          <Paper withBorder shadow="xs" p="md">
            <Title order={2} size="h4" mb="sm">
              {t('table.months')}
            </Title>
            <ForecastTable periods={data.months} caption={t('table.months')} firstHeader={t('table.office')} testId="forecast-months-table" />
          </Paper>
        </Stack>
      )}
    </Stack>
  );
}
