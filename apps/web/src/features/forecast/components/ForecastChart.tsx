import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ForecastPeriod } from '@portal/contracts';
import { BarChart, type ChartBar } from '../../../components/charts/BarChart.tsx';
import { colourOf } from '../forecastApi.ts';
import { formatMoney } from '../../../lib/format.ts';

/* A stacked column per year, one segment per office, for one currency (the shared chart); the same figures are in the table beside it. */
export function ForecastChart({ years, currency, offices }: { years: readonly ForecastPeriod[]; currency: string; offices: readonly string[] }) {
  const { t, i18n } = useTranslation('forecast');
  const lang = i18n.language;
  const bars: ChartBar[] = years.map((y) => {
    const parts = y.offices.filter((o) => o.currency === currency && o.total > 0);
    const total = parts.reduce((n, o) => n + o.total, 0);
    return {
      key: y.period,
      label: y.period,
      name: t('chart.bar', {
        period: y.period,
        amount: formatMoney(total, currency, { whole: true, lang }),
        parts: parts.length === 0 ? t('chart.empty') : parts.map((p) => `${p.office} ${formatMoney(p.total, currency, { whole: true, lang })}`).join(', '),
      }),
      series: parts.map((p) => ({ key: p.office, value: p.total, colour: colourOf(p.office) })),
    };
  });
  const shown = offices.filter((office) => bars.some((b) => b.series.some((s) => s.key === office)));
  const title = t('chart.title', { currency });
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {title}
      </Title>
      <BarChart
        title={title}
        bars={bars}
        layout="columns"
        testId={`forecast-chart-${currency}`}
        barTestId="forecast-bar"
        empty={t('chart.empty')}
        legend={{ label: t('chart.legend'), items: shown.map((office) => ({ key: office, label: office, colour: colourOf(office) })) }}
      />
    </Stack>
  );
}
