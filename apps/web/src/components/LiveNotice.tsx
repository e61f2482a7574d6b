import { Alert } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Discreet notice while live updates are interrupted; the screen polls every `pollMs` meanwhile. */
export function LiveNotice({ show, pollMs }: { show: boolean; pollMs: number }) {
  const { t } = useTranslation('common');
  if (!show) return null;
  return (
    <Alert
      color="gray"
      variant="light"
      radius="md"
      py={8}
      icon={<IconPlugConnectedX size={18} aria-hidden="true" />}
      role="status"
      aria-live="polite"
      data-testid="live-interrupted"
    >
      {t('live.interrupted', { count: pollMs / 1000 })}
    </Alert>
  );
}
