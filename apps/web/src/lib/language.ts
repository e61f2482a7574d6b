import type { Language } from '@portal/contracts';

export const LANGUAGE_STORAGE_KEY = 'portal.language';
/** A language picked with the switcher since the last logout: sent with the next login, which saves it to the account. */
export const CHOSEN_LANGUAGE_STORAGE_KEY = 'portal.language.chosen';

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
 * Language to apply right after a login: the account's language once its user has chosen one, else the
 * current one (the browser's, or a pick on the login screen). A default or an admin's pick at creation never
 * overrides the browser (decision 154). A language picked on the login screen is sent with the login and
 * saved as the account's choice, so the language the server answers with is already that pick.
 */
export function languageAfterLogin(current: Language, user: { langue?: string | null; langue_chosen?: boolean } | null | undefined): Language {
  if (!user?.langue_chosen) return current;
  return asLanguage(user.langue) ?? current;
}

/** Records a language the visitor picked with the switcher (storage may be unavailable: the choice then lasts for the page only). */
export function recordChosenLanguage(lang: Language, storage: Pick<Storage, 'setItem'> | undefined = globalStorage()): void {
  try {
    storage?.setItem(CHOSEN_LANGUAGE_STORAGE_KEY, lang);
  } catch {
    /* private mode */
  }
}

/** The language picked with the switcher since the last logout, if any. */
export function chosenLanguage(storage: Pick<Storage, 'getItem'> | undefined = globalStorage()): Language | undefined {
  try {
    return asLanguage(storage?.getItem(CHOSEN_LANGUAGE_STORAGE_KEY));
  } catch {
    return undefined;
  }
}

/** Forgets the pick once the account has it (after a login) or when the session ends (a logout: the next person starts afresh). */
export function forgetChosenLanguage(storage: Pick<Storage, 'removeItem'> | undefined = globalStorage()): void {
  try {
    storage?.removeItem(CHOSEN_LANGUAGE_STORAGE_KEY);
  } catch {
    /* private mode */
  }
}

function globalStorage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}
