import { Badge, Group, Loader as MantineLoader } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconCircleX, IconSend } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { statusBadge, type RunStatusInput } from './model.ts';

const ICONS = {
  accepted: IconCircleCheck,
  refused: IconCircleX,
  error: IconAlertTriangle,
} as const;

/** The run's state: in progress (orange), accepted (green), refused or error (red); "sent to step 2" when delivered. */
export function StateBadge({ run, delivered, size = 'md' }: { run: RunStatusInput; delivered?: boolean; size?: 'sm' | 'md' | 'lg' }) {
  const { t } = useTranslation('ledes');
  const { status, color } = statusBadge(run);
  const Icon = status === 'in_progress' ? null : ICONS[status];
  return (
    <Group gap={6} wrap="nowrap">
      <Badge
        color={color}
        variant="light"
        size={size}
        radius="sm"
        tt="none"
        data-testid="run-state"
        data-state={status}
        leftSection={Icon ? <Icon size={14} aria-hidden="true" /> : <MantineLoader size={10} color={color} type="oval" aria-hidden="true" />}
      >
        {t(`state.${status}`)}
      </Badge>
      {delivered && status === 'accepted' && (
        <Badge color="teal" variant="outline" size={size} radius="sm" tt="none" leftSection={<IconSend size={13} aria-hidden="true" />} data-testid="run-delivered">
          {t('state.delivered')}
        </Badge>
      )}
    </Group>
  );
}
