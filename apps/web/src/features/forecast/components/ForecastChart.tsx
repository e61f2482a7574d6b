import { Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ForecastPeriod } from '@portal/contracts';
import { colourOf, money } from '../forecastApi.ts';
import classes from './ForecastChart.module.css';

/*
 * A stacked bar per year, one segment per office, for one currency: plain SVG (no chart library: nothing to load,
 * nothing inaccessible). Each bar is a Tab stop whose label reads the year, the total and each office's figure; the
 * same figures are in the table beside it.
 */

const HEIGHT = 220;
const BAR = 44;
const GAP = 28;
const LEFT = 8;

export function ForecastChart({ years, currency, offices }: { years: readonly ForecastPeriod[]; currency: string; offices: readonly string[] }) {
  const { t, i18n } = useTranslation('forecast');
  const lang = i18n.language;
  const bars = years.map((y) => {
    const parts = y.offices.filter((o) => o.currency === currency && o.total > 0);
    return { period: y.period, parts, total: parts.reduce((n, o) => n + o.total, 0) };
  });
  const max = Math.max(1, ...bars.map((b) => b.total));
  const width = LEFT + bars.length * (BAR + GAP);
  const shown = offices.filter((office) => bars.some((b) => b.parts.some((p) => p.office === office)));
  return (
    <Stack gap="xs" data-testid={`forecast-chart-${currency}`}>
      <Title order={3} size="h5">
        {t('chart.title', { currency })}
      </Title>
      <svg viewBox={`0 0 ${width} ${HEIGHT + 24}`} width="100%" style={{ maxWidth: width * 1.6, overflow: 'visible' }} role="group" aria-label={t('chart.title', { currency })}>
        <line x1={0} x2={width} y1={HEIGHT} y2={HEIGHT} stroke="#495057" strokeWidth={1} />
        {bars.map((b, i) => {
          const x = LEFT + i * (BAR + GAP);
          let y = HEIGHT;
          const label = t('chart.bar', {
            period: b.period,
            amount: money(b.total, currency, lang),
            parts: b.parts.length === 0 ? t('chart.empty') : b.parts.map((p) => `${p.office} ${money(p.total, currency, lang)}`).join(', '),
          });
          return (
            <g key={b.period} tabIndex={0} role="img" aria-label={label} className={classes.bar} data-testid="forecast-bar">
              <title>{label}</title>
              <rect className={classes.focus} x={x - 5} y={1} width={BAR + 10} height={HEIGHT - 1} fill="transparent" stroke="none" rx={3} />
              {b.parts.map((p) => {
                const h = (p.total / max) * (HEIGHT - 8);
                y -= h;
                return <rect key={p.office} x={x} y={y} width={BAR} height={Math.max(h, 0.5)} fill={colourOf(p.office)} stroke="#ffffff" strokeWidth={1} />;
              })}
              <text x={x + BAR / 2} y={HEIGHT + 16} textAnchor="middle" fontSize={12} fill="#212529">
                {b.period}
              </text>
            </g>
          );
        })}
      </svg>
      <Group gap="sm" wrap="wrap" aria-label={t('chart.legend')} role="list">
        {shown.map((office) => (
          <Group key={office} gap={4} role="listitem" wrap="nowrap">
            <span aria-hidden="true" style={{ display: 'inline-block', width: 12, height: 12, background: colourOf(office), borderRadius: 2 }} />
            <Text size="sm">{office}</Text>
          </Group>
        ))}
      </Group>
    </Stack>
  );
}
