import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * The announcement of a rejected submit: "2 fields need your attention". A live region that is
 * always in the page (so screen readers pick up its change); the messages themselves sit under the
 * fields, tied to them by aria-describedby, and the first invalid field has the focus.
 */
export function FormErrorSummary({ count, testId }: { count: number; testId?: string }) {
  const { t } = useTranslation('common');
  return (
    <div role="alert" aria-atomic="true" data-testid={testId}>
      {count > 0 && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} aria-hidden="true" />} p="xs">
          {t('form.invalidSummary', { count })}
        </Alert>
      )}
    </div>
  );
}
