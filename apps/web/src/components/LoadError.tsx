import { Alert, Button, Group } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** A list or table that could not be read: the reason in words and a retry button, announced. */
export function LoadError({ message, retryLabel, onRetry, testId }: { message: string; retryLabel: string; onRetry: () => void; testId: string }) {
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden="true" />} role="alert" data-testid={testId}>
      <Group gap="sm" justify="space-between">
        <span>{message}</span>
        <Button size="compact-sm" variant="white" color="red" onClick={onRetry}>
          {retryLabel}
        </Button>
      </Group>
    </Alert>
  );
}
