import { useTranslation } from 'react-i18next';
import { Table, Text } from '@mantine/core';
import type { SpendGroup } from '@portal/contracts';
import { pageLanguage } from '../../../lib/format.ts';

/** Colours on white: #1d4f91 (8.6:1) for the spend, #a3222f (7.2:1) for the amounts refused (WCAG AA for text and graphics). */
export const SPEND_COLOUR = '#1d4f91';
export const REFUSED_COLOUR = '#a3222f';
/** An amount with 2 decimals in the page's locale (French "1 234,50", English "1,234.50"). */
export const money = (value: string) =>
  new Intl.NumberFormat(pageLanguage().toLowerCase().startsWith('fr') ? 'fr-FR' : 'en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(value));

/**
 * Horizontal bars (plain elements, no chart library): one row per group, its label above, the spend bar and,
 * under it, the refused bar, widths relative to the largest. Each row is focusable and its accessible name reads
 * its label and values, so a keyboard user hears what a sighted one sees; the data table beside it has the same
 * numbers.
 */
export function BarChart({ id, title, groups, labelOf }: { id: string; title: string; groups: readonly SpendGroup[]; labelOf: (g: SpendGroup) => string }) {
  const { t } = useTranslation('analytics');
  const max = Math.max(1, ...groups.map((g) => Math.max(Number(g.spend), Number(g.refused))));
  if (groups.length === 0) return <Text c="dimmed" size="sm">{t('empty')}</Text>;
  const pct = (v: string) => `${Math.max(0, (Number(v) / max) * 100).toFixed(2)}%`;
  return (
    <ul aria-label={title} data-testid={`chart-${id}`} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {groups.map((g) => {
        const label = labelOf(g);
        const name = t('bar', { label, spend: money(g.spend), refusedAmount: money(g.refused) });
        return (
          <li key={g.key} tabIndex={0} aria-label={name} className="analytics-bar" style={{ marginBottom: 8, outlineOffset: 2 }}>
            <Text size="xs" truncate="end" aria-hidden="true">
              {label}
            </Text>
            <div aria-hidden="true" style={{ height: 12, width: pct(g.spend), minWidth: Number(g.spend) > 0 ? 2 : 0, background: SPEND_COLOUR, borderRadius: 2 }} />
            <div aria-hidden="true" style={{ height: 6, marginTop: 2, width: pct(g.refused), minWidth: Number(g.refused) > 0 ? 2 : 0, background: REFUSED_COLOUR, borderRadius: 2 }} />
          </li>
        );
      })}
    </ul>
  );
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
