import { Group, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Where a Done run's treated file will be offered, while it is being written (`treatedPending` in model.ts). */
export function TreatedPending() {
  const { t } = useTranslation('ledes');
  return (
    <Group gap={6} wrap="nowrap" role="status" data-testid="treated-pending">
      <Loader size={14} aria-hidden="true" />
      <Text size="xs" c="dark.4" style={{ whiteSpace: 'nowrap' }}>
        {t('history.treatedPending')}
      </Text>
    </Group>
  );
}
