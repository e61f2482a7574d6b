import i18next, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language } from '@portal/contracts';
import { setApiLanguageProvider } from './api.ts';
import { formatNumber } from './format.ts';
import { LANGUAGE_STORAGE_KEY, asLanguage, chooseInitialLanguage } from './language.ts';

/**
 * The namespaces the web shows. The server-only ones (errors, emails, api) are rendered by the API
 * and never shipped to the browser. Three tiers, so the first load stays light (decision 207):
 * - core (the frame, the login): the language chunk every cold visit downloads;
 * - app (the screens of the original portal: users, contact, LEDES, annuity files): one chunk per
 *   language, fetched with any screen past the landing ones (`loadAppTexts`, called by the router);
 * - lazy (the patent screens' and every later feature's): a chunk each, fetched with the screen that
 *   uses them (`loadNamespace`, called by the router).
 */
export const CORE_NAMESPACES = ['common', 'auth'] as const;
export const APP_NAMESPACES = ['users', 'contact', 'ledes', 'annuities'] as const;
export const LAZY_NAMESPACES = ['patents', 'portfolio', 'mfa', 'receipts', 'costs', 'guidelines', 'forecast', 'analytics', 'register', 'calls'] as const;
export const WEB_NAMESPACES = [...CORE_NAMESPACES, ...APP_NAMESPACES, ...LAZY_NAMESPACES] as const;
export type WebNamespace = (typeof WEB_NAMESPACES)[number];
export type LazyNamespace = (typeof LAZY_NAMESPACES)[number];
type AppNamespace = (typeof APP_NAMESPACES)[number];
type LanguageBundle = Record<(typeof CORE_NAMESPACES)[number], ResourceKey>;
type AppBundle = Record<AppNamespace, ResourceKey>;
type JsonChunk = () => Promise<{ default: ResourceKey }>;

const LAZY_BUNDLES: Record<LazyNamespace, Record<Language, JsonChunk>> = {
  patents: { en: () => import('@portal/i18n/locales/en/patents.json'), fr: () => import('@portal/i18n/locales/fr/patents.json') },
  portfolio: { en: () => import('@portal/i18n/locales/en/portfolio.json'), fr: () => import('@portal/i18n/locales/fr/portfolio.json') },
  mfa: { en: () => import('@portal/i18n/locales/en/mfa.json'), fr: () => import('@portal/i18n/locales/fr/mfa.json') },
  receipts: { en: () => import('@portal/i18n/locales/en/receipts.json'), fr: () => import('@portal/i18n/locales/fr/receipts.json') },
  costs: { en: () => import('@portal/i18n/locales/en/costs.json'), fr: () => import('@portal/i18n/locales/fr/costs.json') },
  calls: { en: () => import('@portal/i18n/locales/en/calls.json'), fr: () => import('@portal/i18n/locales/fr/calls.json') },
  guidelines: { en: () => import('@portal/i18n/locales/en/guidelines.json'), fr: () => import('@portal/i18n/locales/fr/guidelines.json') },
  forecast: { en: () => import('@portal/i18n/locales/en/forecast.json'), fr: () => import('@portal/i18n/locales/fr/forecast.json') },
  analytics: { en: () => import('@portal/i18n/locales/en/analytics.json'), fr: () => import('@portal/i18n/locales/fr/analytics.json') },
  register: { en: () => import('@portal/i18n/locales/en/register.json'), fr: () => import('@portal/i18n/locales/fr/register.json') },
};
const isLazy = (namespace: string): namespace is LazyNamespace => (LAZY_NAMESPACES as readonly string[]).includes(namespace);
const isApp = (namespace: string): namespace is AppNamespace => (APP_NAMESPACES as readonly string[]).includes(namespace);

/**
 * One chunk per language (all web namespaces together: one request on a slow link rather than five),
 * fetched the first time the language is used; the other language never loads unless chosen.
 */
const BUNDLES: Record<Language, () => Promise<{ default: LanguageBundle }>> = {
  en: () => import('./locales/en.ts'),
  fr: () => import('./locales/fr.ts'),
};
const APP_BUNDLES: Record<Language, () => Promise<{ default: AppBundle }>> = {
  en: () => import('./locales/en-app.ts'),
  fr: () => import('./locales/fr-app.ts'),
};

/** One fetch per chunk and language, shared by every namespace it holds; a failed one may be retried. */
function memo<T>(load: (lang: Language) => Promise<{ default: T }>): (lang: Language) => Promise<T> {
  const loading = new Map<Language, Promise<T>>();
  return (lang) => {
    let bundle = loading.get(lang);
    if (!bundle) {
      bundle = load(lang).then((m) => m.default);
      // A failed fetch (offline, new deployment) may be retried by the next switch.
      bundle.catch(() => loading.delete(lang));
      loading.set(lang, bundle);
    }
    return bundle;
  };
}

export const loadLanguageBundle: (lang: Language) => Promise<LanguageBundle> = memo((lang) => BUNDLES[lang]());
export const loadAppBundle: (lang: Language) => Promise<AppBundle> = memo((lang) => APP_BUNDLES[lang]());

/** i18next backend over the chunks above; i18next waits for it before a language change applies. */
const chunkBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, namespace, callback) {
    const lang = asLanguage(language);
    if (!lang || !(WEB_NAMESPACES as readonly string[]).includes(namespace)) {
      callback(null, {});
      return;
    }
    const texts = isLazy(namespace)
      ? LAZY_BUNDLES[namespace][lang]().then((m) => m.default)
      : isApp(namespace)
        ? loadAppBundle(lang).then((bundle) => bundle[namespace])
        : loadLanguageBundle(lang).then((bundle) => bundle[namespace as keyof LanguageBundle]);
    texts.then(
      (bundle) => callback(null, bundle),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};

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

/**
 * Resolves once the initial language's texts are loaded: main.tsx renders after it, so no screen
 * ever shows raw keys. English is the fallback only for a missing key, so a French start loads
 * French alone (`fallbackLng: false` would be the same; the key check keeps both files complete).
 */
export const i18nReady: Promise<unknown> = i18next
  .use(chunkBackend)
  .use(initReactI18next)
  .init({
    lng: initial,
    fallbackLng: false,
    supportedLngs: ['en', 'fr'],
    load: 'languageOnly',
    ns: [...CORE_NAMESPACES],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
  })
  .catch((error: unknown) => console.error('i18n init failed', error));

// Numbers inside a text (`{{count, number}}`) are written by the same function as the numbers of the cells (decision 153).
i18next.services.formatter?.add('number', (value: unknown, lng: string | undefined) => formatNumber(value, lng ?? currentLanguage()));

function syncDocument(lang: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
}
syncDocument(initial);
i18next.on('languageChanged', syncDocument);

setApiLanguageProvider(() => currentLanguage());

export function currentLanguage(): Language {
  return asLanguage(i18next.resolvedLanguage ?? i18next.language) ?? 'en';
}

/**
 * A switch waits for its texts; meanwhile the language it goes to is "pending". The switcher shows it at once,
 * so a pick made during the wait (the account's language applied at login, on a slow link) is a real change
 * that i18next applies last, never a click on the already shown value undone by the switch in flight.
 */
let pendingLanguage: Language | undefined;
const languageListeners = new Set<() => void>();
function notifyLanguage(): void {
  for (const listener of languageListeners) listener();
}
i18next.on('languageChanging', (lng: string) => {
  pendingLanguage = asLanguage(lng);
  notifyLanguage();
});
i18next.on('languageChanged', () => {
  pendingLanguage = undefined;
  notifyLanguage();
});

/** The language the UI shows or is switching to. */
export function displayedLanguage(): Language {
  return pendingLanguage ?? currentLanguage();
}

/** Subscribes to changes of `displayedLanguage()` (for `useSyncExternalStore`). */
export function onDisplayedLanguage(listener: () => void): () => void {
  languageListeners.add(listener);
  return () => {
    languageListeners.delete(listener);
  };
}

/**
 * Changes the UI language and remembers it for the next visits. The new language's chunk is
 * loaded first; screens re-render only once its texts are there (no flash of keys).
 */
export async function switchLanguage(lang: Language): Promise<void> {
  remember(lang);
  await i18next.changeLanguage(lang);
}

/**
 * Loads a lazy namespace in the current language (and, from then on, in every language switched to:
 * i18next reloads the namespaces it has). Resolves once its texts are there: a screen awaiting it
 * never shows keys.
 */
export async function loadNamespace(namespace: LazyNamespace): Promise<void> {
  await i18nReady;
  await i18next.loadNamespaces(namespace);
}

/** Loads the app namespaces (one chunk) in the current language, and in every language switched to from then on. */
export async function loadAppTexts(): Promise<void> {
  await i18nReady;
  await i18next.loadNamespaces([...APP_NAMESPACES]);
}

export default i18next;
