import type { Day } from './calendar.ts';

export const OFFICES = ['EP', 'UP', 'BE', 'DE', 'ES', 'FR', 'GB', 'IT', 'NL', 'SE'] as const;
export type Office = (typeof OFFICES)[number];
export type NationalOffice = Exclude<Office, 'EP' | 'UP'>;

/**
 * national: filed at the national office; ep_validated: European patent validated in that state;
 * unitary: European patent with unitary effect; ep_application: pending European application.
 */
export const ORIGINS = ['national', 'ep_validated', 'unitary', 'ep_application'] as const;
export type Origin = (typeof ORIGINS)[number];

export type Currency = 'EUR' | 'GBP' | 'SEK';

/** The spec's row colours: ok (green), nok (red), orange, no_date. */
export type Colour = 'ok' | 'nok' | 'orange' | 'no_date';

export function isOffice(value: string): value is Office {
  return (OFFICES as readonly string[]).includes(value);
}

export function isOrigin(value: string): value is Origin {
  return (ORIGINS as readonly string[]).includes(value);
}

export type { Day };
