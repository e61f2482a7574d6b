import { Box, Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ForecastPeriod } from '@portal/contracts';
import { formatMoney } from '../../../lib/format.ts';

/** The chart's figures as a table: a row per office and currency, a column per period, then the totals per currency. */
export function ForecastTable({ periods, caption, firstHeader, testId }: { periods: readonly ForecastPeriod[]; caption: string; firstHeader: string; testId: string }) {
  const { t, i18n } = useTranslation('forecast');
  const lang = i18n.language;
  const keys = [...new Map(periods.flatMap((p) => p.offices.map((o) => [`${o.office}|${o.currency}`, o] as const))).values()];
  const currencies = [...new Set(periods.flatMap((p) => p.totals.map((x) => x.currency)))].sort();
  const cell = (p: ForecastPeriod, office: string, currency: string) => {
    const figure = p.offices.find((o) => o.office === office && o.currency === currency);
    return figure ? formatMoney(figure.total, currency, { whole: true, lang }) : '–';
  };
  return (
    // A region the keyboard can scroll on a phone (its label is the table's caption).
    <Box style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={caption}>
      <Table striped withTableBorder withColumnBorders data-testid={testId} miw={120 + periods.length * 96}>
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{firstHeader}</Table.Th>
            {periods.map((p) => (
              <Table.Th key={p.period} scope="col" style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                {p.period}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {keys.map((k) => (
            <Table.Tr key={`${k.office}|${k.currency}`} data-testid="forecast-row">
              <Table.Th scope="row" style={{ whiteSpace: 'nowrap' }}>
                {k.office}
              </Table.Th>
              {periods.map((p) => (
                <Table.Td key={p.period} style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                  {cell(p, k.office, k.currency)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
          {currencies.map((currency) => (
            <Table.Tr key={currency} data-testid="forecast-total-row" fw={700}>
              <Table.Th scope="row" style={{ whiteSpace: 'nowrap' }}>
                {t('table.total', { currency })}
              </Table.Th>
              {periods.map((p) => {
                const total = p.totals.find((x) => x.currency === currency);
                return (
                  <Table.Td key={p.period} style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                    {total ? formatMoney(total.total, currency, { whole: true, lang }) : '–'}
                  </Table.Td>
                );
              })}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Box>
  );
}
