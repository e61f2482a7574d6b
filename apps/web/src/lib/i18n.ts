import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { resources, NAMESPACES } from '@portal/i18n';
import type { Language } from '@portal/contracts';
import { setApiLanguageProvider } from './api.ts';
import { LANGUAGE_STORAGE_KEY, asLanguage, chooseInitialLanguage } from './language.ts';

function readStored(): string | null {
  try {
    return window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    return null;
  }
}

function remember(lang: Language): void {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, lang);
  } catch {
    /* private mode: the choice lasts for the tab only */
  }
}

const initial = chooseInitialLanguage(readStored(), typeof navigator === 'undefined' ? [] : navigator.languages ?? [navigator.language]);

// Synchronous in effect (bundled resources, initAsync: false); a rejection would be a bug worth a trace.
i18next
  .use(initReactI18next)
  .init({
  resources,
  lng: initial,
  fallbackLng: 'en',
  supportedLngs: ['en', 'fr'],
  ns: NAMESPACES,
  defaultNS: 'common',
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
  })
  .catch((error: unknown) => console.error('i18n init failed', error));

function syncDocument(lang: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
}
syncDocument(initial);
i18next.on('languageChanged', syncDocument);

setApiLanguageProvider(() => currentLanguage());

export function currentLanguage(): Language {
  return asLanguage(i18next.resolvedLanguage ?? i18next.language) ?? 'en';
}

/** Changes the UI language and remembers it for the next visits. */
export async function switchLanguage(lang: Language): Promise<void> {
  remember(lang);
  await i18next.changeLanguage(lang);
}

export default i18next;
