import { Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PatentCostsDto } from '@portal/contracts';
import { formatMoney } from '../../../lib/format.ts';
import { formatDay, formatEuros } from '../model.ts';

const money = (value: number, currency: string, lang: string) => formatMoney(value, currency, { lang });

/**
 * The next annuity's cost, one line per part (issue 30 §1): official fee with its table and validity,
 * surcharge, agent's fee, service fee and margin, each in its currency and in euros at the dated ECB rate.
 */
export function PatentCosts({ costs }: { costs: PatentCostsDto | null | undefined }) {
  const { t, i18n } = useTranslation('patents');
  const lang = i18n.language;
  if (!costs) return null;
  return (
    <Stack gap={6} component="section" data-testid="patent-costs">
      <Title order={3} size="h5">
        {t('detail.costs.title', { number: costs.annuity, date: formatDay(costs.payment_date) })}
      </Title>
      {costs.lapsed ? (
        <Text size="sm" c="dark.6">
          {t('detail.costs.lapsed')}
        </Text>
      ) : (
        <div tabIndex={0} role="region" aria-label={t('detail.costs.table')} style={{ overflowX: 'auto' }}>
          <Table verticalSpacing={4} fz="sm" miw={420}>
            <Table.Caption>{t('detail.costs.caption')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('detail.costs.columns.part')}</Table.Th>
                <Table.Th ta="right">{t('detail.costs.columns.amount')}</Table.Th>
                <Table.Th ta="right">{t('detail.costs.columns.eur')}</Table.Th>
                <Table.Th>{t('detail.costs.columns.source')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {costs.parts.map((p) => (
                <Table.Tr key={`${p.kind}-${p.ref}`} data-testid={`cost-${p.kind}`}>
                  <Table.Td>{t(`detail.costs.kinds.${p.kind}`)}</Table.Td>
                  <Table.Td ta="right">{money(p.amount, p.currency, lang)}</Table.Td>
                  <Table.Td ta="right">{p.amount_eur === null ? t('detail.costs.noRate') : formatEuros(p.amount_eur, lang)}</Table.Td>
                  <Table.Td>
                    {p.kind === 'official_fee'
                      ? t(p.valid_until ? 'detail.costs.tableBetween' : 'detail.costs.tableFrom', { id: p.ref, from: formatDay(p.valid_from), until: formatDay(p.valid_until) })
                      : p.valid_from
                        ? t('detail.costs.validFrom', { from: formatDay(p.valid_from) })
                        : ''}
                    {!p.verified && (
                      <Text span size="xs" c="dark.4" display="block">
                        {t('detail.feeUnverified')}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr fw={700}>
                <Table.Td>{t('detail.costs.total')}</Table.Td>
                <Table.Td />
                <Table.Td ta="right" data-testid="cost-total">
                  {costs.total_eur === null ? t('detail.costs.noRate') : formatEuros(costs.total_eur, lang)}
                </Table.Td>
                <Table.Td />
              </Table.Tr>
            </Table.Tfoot>
          </Table>
          {costs.rates.map((r) => (
            <Text key={r.currency} size="xs" c="dark.6" mt={4} data-testid="cost-rate">
              {t('detail.costs.rate', { currency: r.currency, rate: r.per_eur, date: formatDay(r.day) })}
            </Text>
          ))}
        </div>
      )}
    </Stack>
  );
}
