import type { Language } from '@portal/contracts';

export const LANGUAGE_STORAGE_KEY = 'portal.language';

export function asLanguage(value: string | null | undefined): Language | undefined {
  if (!value) return undefined;
  const base = value.trim().toLowerCase().split(/[-_]/)[0];
  return base === 'fr' || base === 'en' ? base : undefined;
}

/**
 * Start-up language: a remembered choice wins, then the browser languages in order, then English.
 */
export function chooseInitialLanguage(stored: string | null | undefined, browserLanguages: readonly string[]): Language {
  const remembered = asLanguage(stored);
  if (remembered) return remembered;
  for (const lang of browserLanguages) {
    const l = asLanguage(lang);
    if (l) return l;
  }
  return 'en';
}

/**
 * Language to apply right after a login: the account's language, unless it is not a supported value.
 * A later explicit switch overwrites the remembered choice, so it wins from then on.
 */
export function languageAfterLogin(current: Language, userLangue: string | null | undefined): Language {
  return asLanguage(userLangue) ?? current;
}
