import { Box, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import classes from './files.module.css';

/**
 * The columns of the explanatory picture, in the order a client sheet usually has them. `aliases`
 * are headers the check recognises (packages/annuities, spreadsheet/columns.ts), in both languages
 * whatever the screen's: they are data, not prose.
 */
const COLUMNS = [
  { key: 'reference', need: 'optional', aliases: 'Référence, Reference, Ref, Dossier, Matter', sample: 'REF-0421' },
  { key: 'publication', need: 'oneOf', aliases: 'N° publication, Publication no', sample: 'EP 3 456 789 B1' },
  { key: 'application', need: 'oneOf', aliases: 'N° dépôt, Application no, Filing no', sample: 'EP17123456' },
  { key: 'country', need: 'required', aliases: 'Pays, Country, Office, CC', sample: 'FR' },
  { key: 'filingDate', need: 'required', aliases: 'Date de dépôt, Filing date', sample: '15/03/2017' },
  { key: 'grantDate', need: 'optional', aliases: 'Date de délivrance, Grant date', sample: '2020-06-10' },
  { key: 'lastPaid', need: 'optional', aliases: 'Dernière annuité payée, Last annuity paid', sample: '6' },
  { key: 'title', need: 'optional', aliases: 'Titre, Title, Nom, Name', sample: 'Pompe à chaleur' },
  { key: 'payer', need: 'optional', aliases: 'Payeur, Payer, Client', sample: 'Acme SA' },
] as const;

/**
 * The help modal's "picture": a small sample sheet drawn as a real table (translated, readable by a
 * screen reader, sharp at any zoom), each column with the headers the check recognises in French and
 * English and whether it is required.
 */
export function ColumnsPicture() {
  const { t } = useTranslation('annuities');
  return (
    <Box className={classes.picture} data-testid="columns-picture">
      {/* A region of its own: the keyboard can scroll it (axe scrollable-region-focusable). */}
      <div className={classes.scroller} tabIndex={0} role="region" aria-label={t('verify.help.pictureCaption')}>
        <Table withColumnBorders withTableBorder fz="xs" miw={860} className={classes.sheet}>
          <caption className={classes.caption}>{t('verify.help.pictureCaption')}</caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col" className={classes.rowHead} aria-label={t('verify.help.rowNumber')} />
              {COLUMNS.map((c, i) => (
                <Table.Th key={c.key} scope="col" className={classes.colLetter}>
                  {String.fromCharCode(65 + i)}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <Table.Tr className={classes.headerRow}>
              <Table.Th scope="row" className={classes.rowHead}>
                1
              </Table.Th>
              {COLUMNS.map((c) => (
                <Table.Td key={c.key}>
                  <Text fw={700} fz="xs">
                    {t(`verify.help.columns.${c.key}`)}
                  </Text>
                  <Text fz={11} c="dimmed">
                    {c.aliases}
                  </Text>
                  <Text fz={11} fw={600} c={c.need === 'optional' ? 'dimmed' : 'red.8'}>
                    {t(`verify.help.need.${c.need}`)}
                  </Text>
                </Table.Td>
              ))}
            </Table.Tr>
            <Table.Tr>
              <Table.Th scope="row" className={classes.rowHead}>
                2
              </Table.Th>
              {COLUMNS.map((c) => (
                <Table.Td key={c.key} className={classes.sample}>
                  {c.sample}
                </Table.Td>
              ))}
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </div>
    </Box>
  );
}
