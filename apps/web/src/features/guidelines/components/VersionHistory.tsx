import { Button, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { GuidelineVersionDto } from '@portal/contracts';
import { formatDate, formatDay } from '../../../lib/format.ts';

/** The client's versions, newest first; one can be loaded into the editor as the start of the next. */
export function VersionHistory({ versions, onCopy }: { versions: GuidelineVersionDto[]; onCopy: (v: GuidelineVersionDto) => void }) {
  const { t } = useTranslation('guidelines');
  if (versions.length === 0) return <Text c="dimmed">{t('history.empty')}</Text>;
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table striped data-testid="guideline-versions">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('history.version')}</Table.Th>
            <Table.Th>{t('history.from')}</Table.Th>
            <Table.Th>{t('history.rules')}</Table.Th>
            <Table.Th>{t('history.note')}</Table.Th>
            <Table.Th>{t('history.saved')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {versions.map((v) => (
            <Table.Tr key={v.id}>
              <Table.Td>{v.version}</Table.Td>
              <Table.Td>{formatDay(v.effective_from)}</Table.Td>
              <Table.Td>{v.rules.length}</Table.Td>
              <Table.Td>{v.note ?? ''}</Table.Td>
              <Table.Td>{formatDate(v.created)}</Table.Td>
              <Table.Td>
                <Button size="xs" variant="light" onClick={() => onCopy(v)}>
                  {t('history.copy')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
