import { Badge } from '@mantine/core';
import { IconAlertOctagon, IconCalendarOff, IconCircleCheck, IconHistory, type Icon } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PAYMENT_UNKNOWN_DUE_SOON_DAYS, type AnnuityColour } from '@portal/contracts';

/** Each row colour with its Mantine colour and an icon: the colour is never the only cue. */
export const COLOUR_STYLE: Record<AnnuityColour, { color: string; icon: Icon }> = {
  ok: { color: 'green', icon: IconCircleCheck },
  nok: { color: 'red', icon: IconAlertOctagon },
  orange: { color: 'orange', icon: IconHistory },
  no_date: { color: 'gray', icon: IconCalendarOff },
};

/** The row colour as a badge: icon and words (light variant: shade 9 text on shade 1, ≥ 4.5:1). */
export function ColourBadge({ colour, size = 'sm' }: { colour: AnnuityColour; size?: 'xs' | 'sm' | 'md' }) {
  const { t } = useTranslation('annuities');
  const { color, icon: Icon } = COLOUR_STYLE[colour];
  return (
    <Badge
      variant="light"
      color={color}
      c={color === 'gray' ? 'dark.7' : `${color}.9`}
      radius="sm"
      size={size}
      tt="none"
      leftSection={<Icon size={13} aria-hidden="true" />}
      title={t(`colour.help.${colour}`, { count: PAYMENT_UNKNOWN_DUE_SOON_DAYS })}
      data-testid="colour-badge"
      data-colour={colour}
      // Never cut to "À j…" in a narrow table cell: the badge keeps its whole text.
      styles={{ root: { minWidth: 'max-content', overflow: 'visible' }, label: { overflow: 'visible' } }}
    >
      {t(`colour.${colour}`)}
    </Badge>
  );
}
