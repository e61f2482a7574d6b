import { Badge, Group, Loader as MantineLoader, ThemeIcon, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconCircleX, IconSend } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { statusBadge, type RunStatusInput } from './model.ts';

const ICONS = {
  accepted: IconCircleCheck,
  refused: IconCircleX,
  error: IconAlertTriangle,
} as const;

/** The run's state: in progress (orange), accepted (green), refused or error (red); "sent to step 2" when delivered. */
export function StateBadge({
  run,
  delivered,
  size = 'md',
  compact = false,
}: {
  run: RunStatusInput;
  delivered?: boolean;
  size?: 'sm' | 'md' | 'lg';
  /** In tables: "sent to step 2" as an icon with a tooltip. */
  compact?: boolean;
}) {
  const { t } = useTranslation('ledes');
  const { status, color } = statusBadge(run);
  const Icon = status === 'in_progress' ? null : ICONS[status];
  return (
    // In a table the cell never gets narrower than the badges: a Badge hides its overflow, so the column could shrink
    // under it, cut the state to "Accep…" and slide the next column's button over the icon.
    <Group gap={6} wrap="nowrap" style={compact ? { minWidth: 'max-content' } : undefined}>
      <Badge
        color={color}
        variant="light"
        size={size}
        radius="sm"
        tt="none"
        data-testid="run-state"
        data-state={status}
        style={{ flexShrink: 0 }}
        leftSection={Icon ? <Icon size={14} aria-hidden="true" /> : <MantineLoader size={10} color={color} type="oval" aria-hidden="true" />}
      >
        {t(`state.${status}`)}
      </Badge>
      {delivered && status === 'accepted' && compact && (
        <Tooltip label={t('state.delivered')} withArrow>
          <ThemeIcon color="teal" variant="outline" size={22} radius="sm" aria-label={t('state.delivered')} role="img" data-testid="run-delivered" style={{ flexShrink: 0 }}>
            <IconSend size={13} aria-hidden="true" />
          </ThemeIcon>
        </Tooltip>
      )}
      {delivered && status === 'accepted' && !compact && (
        <Badge color="teal" variant="outline" size={size} radius="sm" tt="none" style={{ flexShrink: 0 }} leftSection={<IconSend size={13} aria-hidden="true" />} data-testid="run-delivered">
          {t('state.delivered')}
        </Badge>
      )}
    </Group>
  );
}
