import { Box, Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ForecastEur, ForecastPeriod } from '@portal/contracts';
import { formatMoney } from '../../../lib/format.ts';

const PARTS = ['official', 'surcharge', 'agent_fee', 'service_fee', 'margin', 'total'] as const satisfies ReadonlyArray<keyof ForecastEur>;

/**
 * What the years cost all in, in euros: a row per part of the patent's detail (official fee, surcharge, agent's fee,
 * service fee, margin) and their total, a column per year and one for all of them. The sums are the server's
 * (`eur` of each period and of the answer, exact in cents); the screen only formats them.
 */
export function ForecastEurTable({ periods, all, testId }: { periods: readonly ForecastPeriod[]; all: ForecastEur; testId: string }) {
  const { t, i18n } = useTranslation('forecast');
  const lang = i18n.language;
  const money = (value: number) => formatMoney(value, 'EUR', { whole: true, lang });
  const caption = t('eur.caption');
  return (
    <Box style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={caption}>
      <Table striped withTableBorder withColumnBorders data-testid={testId} miw={160 + (periods.length + 1) * 104}>
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('eur.part')}</Table.Th>
            {periods.map((p) => (
              <Table.Th key={p.period} scope="col" style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                {p.period}
              </Table.Th>
            ))}
            <Table.Th scope="col" style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
              {t('eur.all')}
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {PARTS.map((part) => (
            <Table.Tr key={part} data-testid="forecast-eur-row" data-part={part} fw={part === 'total' ? 700 : undefined}>
              <Table.Th scope="row" style={{ whiteSpace: 'nowrap' }}>
                {t(`eur.parts.${part}`)}
              </Table.Th>
              {periods.map((p) => (
                <Table.Td key={p.period} style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                  {money(p.eur[part])}
                </Table.Td>
              ))}
              <Table.Td style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>{money(all[part])}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Box>
  );
}
