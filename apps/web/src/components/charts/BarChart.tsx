import type { ReactNode } from 'react';
import { Group, Text } from '@mantine/core';
import classes from './BarChart.module.css';

/*
 * The portal's one bar chart (the renewal budget, the LEDES spend analytics): plain SVG and plain elements, no chart
 * library (nothing to load, nothing inaccessible). Each bar is a Tab stop whose accessible name (given by the screen, in
 * its locale) reads every figure the bar draws; the screen puts the same figures in a table beside it. Two layouts:
 * `columns` stacks a bar's series in one vertical column (a year per office), `rows` draws each series as its own
 * horizontal bar under the bar's label (spend, then refused). With no figure the chart draws nothing but `empty`.
 */

export interface ChartSeries {
  readonly key: string;
  readonly value: number;
  /** At least 3:1 on white (WCAG 1.4.11); the screens use 4.5:1. */
  readonly colour: string;
}

export interface ChartBar {
  readonly key: string;
  /** The bar's visible label (a year, a law firm). */
  readonly label: string;
  /** The bar's accessible name: its label and every figure, in the page's locale. */
  readonly name: string;
  readonly series: readonly ChartSeries[];
}

export interface ChartLegendItem {
  readonly key: string;
  readonly label: string;
  readonly colour: string;
}

interface BarChartProps {
  title: string;
  bars: readonly ChartBar[];
  layout: 'columns' | 'rows';
  testId: string;
  /** Each bar's test id (default `chart-bar`). */
  barTestId?: string;
  /** Shown instead of the chart when no bar has a figure. */
  empty: ReactNode;
  legend?: { label: string; items: readonly ChartLegendItem[] };
}

const HEIGHT = 220;
const COLUMN = 44;
const GAP = 28;
const LEFT = 8;
/** Heights of a row's series bars, the first the thickest. */
const ROW_HEIGHTS = [12, 6, 4];

export function BarChart({ title, bars, layout, testId, barTestId = 'chart-bar', empty, legend }: BarChartProps) {
  const max = Math.max(0, ...bars.map((b) => (layout === 'columns' ? sum(b.series) : Math.max(0, ...b.series.map((s) => s.value)))));
  if (bars.length === 0 || max <= 0) {
    return (
      <Text c="dimmed" size="sm" data-testid={`${testId}-empty`}>
        {empty}
      </Text>
    );
  }
  return (
    <>
      {layout === 'columns' ? <Columns title={title} bars={bars} max={max} testId={testId} barTestId={barTestId} /> : <Rows title={title} bars={bars} max={max} testId={testId} barTestId={barTestId} />}
      {legend && legend.items.length > 0 && (
        <Group gap="sm" wrap="wrap" aria-label={legend.label} role="list" mt="xs">
          {legend.items.map((item) => (
            <Group key={item.key} gap={4} role="listitem" wrap="nowrap">
              <span aria-hidden="true" style={{ display: 'inline-block', width: 12, height: 12, background: item.colour, borderRadius: 2 }} />
              <Text size="sm">{item.label}</Text>
            </Group>
          ))}
        </Group>
      )}
    </>
  );
}

const sum = (series: readonly ChartSeries[]) => series.reduce((n, s) => n + Math.max(0, s.value), 0);

interface LayoutProps {
  title: string;
  bars: readonly ChartBar[];
  max: number;
  testId: string;
  barTestId: string;
}

function Columns({ title, bars, max, testId, barTestId }: LayoutProps) {
  const width = LEFT + bars.length * (COLUMN + GAP);
  return (
    <svg viewBox={`0 0 ${width} ${HEIGHT + 24}`} width="100%" style={{ maxWidth: width * 1.6, overflow: 'visible' }} role="group" aria-label={title} data-testid={testId}>
      <line x1={0} x2={width} y1={HEIGHT} y2={HEIGHT} stroke="#495057" strokeWidth={1} />
      {bars.map((b, i) => {
        const x = LEFT + i * (COLUMN + GAP);
        let y = HEIGHT;
        return (
          <g key={b.key} tabIndex={0} role="img" aria-label={b.name} className={classes.bar} data-testid={barTestId}>
            <title>{b.name}</title>
            <rect className={classes.focus} x={x - 5} y={1} width={COLUMN + 10} height={HEIGHT - 1} fill="transparent" stroke="none" rx={3} />
            {b.series
              .filter((s) => s.value > 0)
              .map((s) => {
                const h = (s.value / max) * (HEIGHT - 8);
                y -= h;
                return <rect key={s.key} x={x} y={y} width={COLUMN} height={Math.max(h, 0.5)} fill={s.colour} stroke="#ffffff" strokeWidth={1} />;
              })}
            <text x={x + COLUMN / 2} y={HEIGHT + 16} textAnchor="middle" fontSize={12} fill="#212529">
              {b.label}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

function Rows({ title, bars, max, testId, barTestId }: LayoutProps) {
  const pct = (v: number) => `${Math.max(0, (v / max) * 100).toFixed(2)}%`;
  return (
    <ul aria-label={title} data-testid={testId} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {bars.map((b) => (
        <li key={b.key} tabIndex={0} aria-label={b.name} className={classes.row} data-testid={barTestId}>
          <Text size="xs" truncate="end" aria-hidden="true">
            {b.label}
          </Text>
          {b.series.map((s, i) => (
            <div
              key={s.key}
              aria-hidden="true"
              style={{ height: ROW_HEIGHTS[i] ?? 4, marginTop: i === 0 ? 0 : 2, width: pct(s.value), minWidth: s.value > 0 ? 2 : 0, background: s.colour, borderRadius: 2 }}
            />
          ))}
        </li>
      ))}
    </ul>
  );
}
