import i18next, { type i18n, type TFunction } from 'i18next';
import enCommon from '../locales/en/common.json' with { type: 'json' };
import enAuth from '../locales/en/auth.json' with { type: 'json' };
import enUsers from '../locales/en/users.json' with { type: 'json' };
import enContact from '../locales/en/contact.json' with { type: 'json' };
import enErrors from '../locales/en/errors.json' with { type: 'json' };
import enEmails from '../locales/en/emails.json' with { type: 'json' };
import enApi from '../locales/en/api.json' with { type: 'json' };
import enLedes from '../locales/en/ledes.json' with { type: 'json' };
import enAnnuities from '../locales/en/annuities.json' with { type: 'json' };
import enPortfolio from '../locales/en/portfolio.json' with { type: 'json' };
import enPatents from '../locales/en/patents.json' with { type: 'json' };
import enMfa from '../locales/en/mfa.json' with { type: 'json' };
import enReceipts from '../locales/en/receipts.json' with { type: 'json' };
import enCosts from '../locales/en/costs.json' with { type: 'json' };
import enCalls from '../locales/en/calls.json' with { type: 'json' };
import enGuidelines from '../locales/en/guidelines.json' with { type: 'json' };
import enForecast from '../locales/en/forecast.json' with { type: 'json' };
import enAnalytics from '../locales/en/analytics.json' with { type: 'json' };
import enRegister from '../locales/en/register.json' with { type: 'json' };
import frCommon from '../locales/fr/common.json' with { type: 'json' };
import frAuth from '../locales/fr/auth.json' with { type: 'json' };
import frUsers from '../locales/fr/users.json' with { type: 'json' };
import frContact from '../locales/fr/contact.json' with { type: 'json' };
import frErrors from '../locales/fr/errors.json' with { type: 'json' };
import frEmails from '../locales/fr/emails.json' with { type: 'json' };
import frApi from '../locales/fr/api.json' with { type: 'json' };
import frLedes from '../locales/fr/ledes.json' with { type: 'json' };
import frAnnuities from '../locales/fr/annuities.json' with { type: 'json' };
import frPortfolio from '../locales/fr/portfolio.json' with { type: 'json' };
import frPatents from '../locales/fr/patents.json' with { type: 'json' };
import frMfa from '../locales/fr/mfa.json' with { type: 'json' };
import frReceipts from '../locales/fr/receipts.json' with { type: 'json' };
import frCosts from '../locales/fr/costs.json' with { type: 'json' };
import frCalls from '../locales/fr/calls.json' with { type: 'json' };
import frGuidelines from '../locales/fr/guidelines.json' with { type: 'json' };
import frForecast from '../locales/fr/forecast.json' with { type: 'json' };
import frAnalytics from '../locales/fr/analytics.json' with { type: 'json' };
import frRegister from '../locales/fr/register.json' with { type: 'json' };

export const LOCALES = ['en', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];

/** One JSON file per namespace and locale; add a namespace here and in both locale folders. */
export const resources = {
  en: { common: enCommon, auth: enAuth, users: enUsers, contact: enContact, errors: enErrors, emails: enEmails, api: enApi, ledes: enLedes, annuities: enAnnuities, portfolio: enPortfolio, patents: enPatents, mfa: enMfa, receipts: enReceipts, costs: enCosts, calls: enCalls, guidelines: enGuidelines, forecast: enForecast, analytics: enAnalytics, register: enRegister },
  fr: { common: frCommon, auth: frAuth, users: frUsers, contact: frContact, errors: frErrors, emails: frEmails, api: frApi, ledes: frLedes, annuities: frAnnuities, portfolio: frPortfolio, patents: frPatents, mfa: frMfa, receipts: frReceipts, costs: frCosts, calls: frCalls, guidelines: frGuidelines, forecast: frForecast, analytics: frAnalytics, register: frRegister },
} as const;
export type Namespace = keyof (typeof resources)['en'];
export const NAMESPACES = Object.keys(resources.en) as Namespace[];

export function toLocale(value: string | undefined | null): Locale {
  return value?.toLowerCase().startsWith('fr') ? 'fr' : 'en';
}

/** Picks fr or en from an Accept-Language header, English when nothing matches. */
export function localeFromAcceptLanguage(header: string | undefined): Locale {
  if (!header) return 'en';
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.find((p) => p.trim().startsWith('q='));
      return { tag: tag.toLowerCase(), q: q ? Number(q.trim().slice(2)) || 0 : 1 };
    })
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    if (tag.startsWith('fr')) return 'fr';
    if (tag.startsWith('en')) return 'en';
  }
  return 'en';
}

let serverInstance: i18n | undefined;

/** A translator for server-side texts (error messages, e-mails). Synchronous: resources are bundled. */
export function serverT(locale: Locale): TFunction {
  if (!serverInstance) {
    serverInstance = i18next.createInstance();
    // Synchronous in effect (bundled resources); a rejection would be a bug worth a trace.
    serverInstance.init({
      resources,
      lng: 'en',
      fallbackLng: 'en',
      ns: NAMESPACES,
      defaultNS: 'common',
      initAsync: false,
      interpolation: { escapeValue: false },
      returnNull: false,
      showSupportNotice: false,
    }).catch((error: unknown) => console.error('[i18n] init failed:', error));
  }
  return serverInstance.getFixedT(locale);
}
