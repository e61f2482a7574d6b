import { Alert } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { POLL_INTERVAL_MS } from './model.ts';

/** Discreet notice while live updates are interrupted (the screen polls meanwhile). */
export function LiveNotice({ show }: { show: boolean }) {
  const { t } = useTranslation('ledes');
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
      {t('live.interrupted', { seconds: POLL_INTERVAL_MS / 1000 })}
    </Alert>
  );
}
