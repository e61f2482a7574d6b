import { Badge } from '@mantine/core';
import { IconAlertOctagon, IconCalendarOff, IconCircleCheck, IconHistory, IconReceipt, IconRosetteDiscountCheck, type Icon } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PAYMENT_UNKNOWN_DUE_SOON_DAYS, type AnnuityColour, type AnnuityPatentLedger } from '@portal/contracts';

/** Each row colour with its Mantine colour and an icon: the colour is never the only cue. */
export const COLOUR_STYLE: Record<AnnuityColour, { color: string; icon: Icon }> = {
  ok: { color: 'green', icon: IconCircleCheck },
  nok: { color: 'red', icon: IconAlertOctagon },
  orange: { color: 'orange', icon: IconHistory },
  no_date: { color: 'gray', icon: IconCalendarOff },
};

/** The ledger's word on a row (paid and confirmed are the colour `ok`, lapsed `orange`), with its own icon. */
export const LEDGER_STYLE: Record<AnnuityPatentLedger['state'], { color: string; icon: Icon }> = {
  paid: { color: 'green', icon: IconReceipt },
  confirmed: { color: 'green', icon: IconRosetteDiscountCheck },
  lapsed: { color: 'orange', icon: IconHistory },
};

/**
 * The row colour as a badge: icon and words (light variant: shade 9 text on shade 1, ≥ 4.5:1). A row the payment
 * ledger speaks of (decision 214) says the ledger's word instead: paid, paid and confirmed by the register, lapsed.
 */
export function ColourBadge({ colour, size = 'sm', ledger }: { colour: AnnuityColour; size?: 'xs' | 'sm' | 'md'; ledger?: AnnuityPatentLedger['state'] | undefined }) {
  const { t } = useTranslation('annuities');
  const { color, icon: Icon } = ledger ? LEDGER_STYLE[ledger] : COLOUR_STYLE[colour];
  return (
    <Badge
      variant="light"
      color={color}
      c={color === 'gray' ? 'dark.7' : `${color}.9`}
      radius="sm"
      size={size}
      tt="none"
      leftSection={<Icon size={13} aria-hidden="true" />}
      title={ledger ? t(`colour.ledgerHelp.${ledger}`) : t(`colour.help.${colour}`, { count: PAYMENT_UNKNOWN_DUE_SOON_DAYS })}
      data-testid="colour-badge"
      data-colour={colour}
      data-ledger={ledger}
      // Never cut to "À j…" in a narrow table cell: the badge keeps its whole text.
      styles={{ root: { minWidth: 'max-content', overflow: 'visible' }, label: { overflow: 'visible' } }}
    >
      {ledger ? t(`colour.ledger.${ledger}`) : t(`colour.${colour}`)}
    </Badge>
  );
}
