import { useTranslation } from 'react-i18next';
import { Table } from '@mantine/core';
import type { SpendGroup } from '@portal/contracts';
import { BarChart, type ChartBar } from '../../../components/charts/BarChart.tsx';
import { pageLanguage } from '../../../lib/format.ts';

/** Colours on white: #1d4f91 (8.6:1) for the spend, #a3222f (7.2:1) for the amounts refused (WCAG AA for text and graphics). */
export const SPEND_COLOUR = '#1d4f91';
export const REFUSED_COLOUR = '#a3222f';
/** An amount with 2 decimals in the page's locale (French "1 234,50", English "1,234.50"). */
export const money = (value: string) =>
  new Intl.NumberFormat(pageLanguage().toLowerCase().startsWith('fr') ? 'fr-FR' : 'en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(value));

/** One row per group (the shared chart's `rows` layout): the spend bar and, under it, the refused bar, widths relative to the largest. */
export function SpendChart({ id, title, groups, labelOf }: { id: string; title: string; groups: readonly SpendGroup[]; labelOf: (g: SpendGroup) => string }) {
  const { t } = useTranslation('analytics');
  const bars: ChartBar[] = groups.map((g) => {
    const label = labelOf(g);
    return {
      key: g.key,
      label,
      name: t('bar', { label, spend: money(g.spend), refusedAmount: money(g.refused) }),
      series: [
        { key: 'spend', value: Number(g.spend), colour: SPEND_COLOUR },
        { key: 'refused', value: Number(g.refused), colour: REFUSED_COLOUR },
      ],
    };
  });
  return <BarChart title={title} bars={bars} layout="rows" testId={`chart-${id}`} empty={t('empty')} />;
}

/** The chart's numbers as a table (the chart's text alternative and its labels). */
export function DataTable({ groups, labelOf, keyHeader }: { groups: readonly SpendGroup[]; labelOf: (g: SpendGroup) => string; keyHeader: string }) {
  const { t } = useTranslation('analytics');
  return (
    <Table.ScrollContainer minWidth={360}>
      <Table striped withTableBorder fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{keyHeader}</Table.Th>
            <Table.Th ta="right" style={{ whiteSpace: 'nowrap' }}>{t('columns.spend')}</Table.Th>
            <Table.Th ta="right" style={{ whiteSpace: 'nowrap' }}>{t('columns.refused')}</Table.Th>
            <Table.Th ta="right" style={{ whiteSpace: 'nowrap' }}>{t('columns.over')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {groups.map((g) => (
            <Table.Tr key={g.key}>
              <Table.Td className="portal-break">{labelOf(g)}</Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>{money(g.spend)}</Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>{money(g.refused)}</Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>{money(g.over_guidelines)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
