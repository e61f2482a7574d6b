import { describe, expect, it } from 'vitest';
import { NAMESPACES, resources } from '../src/index.ts';
import { NBSP, NNBSP, englishFaults, frenchFaults, prose } from './typography.ts';

/**
 * French and English texts are written by people, so the rules a proof-reader applies are checked
 * here for every string of every namespace (docs/decisions.md: decision 43).
 *
 * French: U+202F (narrow no-break space) before ; ? ! and U+00A0 (no-break space) before : and inside
 * « », the typographic apostrophe ’, the ellipsis character …, and one term per concept.
 * English: no French words or spellings copied from the original French texts, "email" as the one
 * word for electronic mail, and no space before a colon.
 */
interface Text {
  where: string;
  value: string;
}

function texts(locale: 'en' | 'fr'): Text[] {
  const out: Text[] = [];
  const walk = (value: unknown, where: string) => {
    if (typeof value === 'string') out.push({ where, value });
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, `${where}.${k}`);
  };
  for (const ns of NAMESPACES) walk(resources[locale][ns], `${locale}:${ns}`);
  return out;
}

function variables(value: string): string[] {
  return [...value.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]!).sort();
}

function numbers(value: string): string {
  return [...prose(value).matchAll(/\d+/g)].map((m) => m[0]).sort().join(' ');
}

function leaves(value: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (v: unknown, at: string) => {
    if (typeof v === 'string') out.set(at, v);
    else if (v && typeof v === 'object') for (const [k, inner] of Object.entries(v)) walk(inner, at ? `${at}.${k}` : k);
  };
  walk(value, prefix);
  return out;
}

describe('French typography', () => {
  it('the checker finds each fault it is meant to find', () => {
    expect(frenchFaults('Mot de passe oublié ?')).not.toEqual([]);
    expect(frenchFaults('Mot de passe oublié?')).not.toEqual([]);
    expect(frenchFaults(`Lignes${NBSP}: 3`)).toEqual([]);
    expect(frenchFaults('Lignes : 3')).not.toEqual([]);
    expect(frenchFaults(`« ${NBSP}x${NBSP}»`)).not.toEqual([]);
    expect(frenchFaults(`l'office`)).not.toEqual([]);
    expect(frenchFaults('Envoi...')).not.toEqual([]);
    expect(frenchFaults(`Ouvrez le lien${NBSP}:\n{{link}}`)).toEqual([]);
    expect(frenchFaults(`Voir https://example.com/a?b=c:d`)).toEqual([]);
    expect(frenchFaults(`Oublié${NNBSP}?`)).toEqual([]);
  });

  it('no French text has an ordinary space, or none, before : ; ? ! or inside « », a straight apostrophe or three dots', () => {
    const faults = texts('fr').flatMap(({ where, value }) => frenchFaults(value).map((f) => `${where}: ${f} in ${JSON.stringify(value)}`));
    expect(faults).toEqual([]);
  });
});

describe('English texts', () => {
  it('the checker finds each fault it is meant to find', () => {
    expect(englishFaults('Addresse added successfully')).not.toEqual([]);
    expect(englishFaults('Error while adding user : ')).not.toEqual([]);
    expect(englishFaults('Sending the e-mail')).not.toEqual([]);
    expect(englishFaults('Mail sent')).not.toEqual([]);
    expect(englishFaults('Paramètre manquant')).not.toEqual([]);
    expect(englishFaults('The email has been sent: check your inbox.')).toEqual([]);
  });

  it('no English text has a French word, a spelling copied from the French texts, or a mixed word for email', () => {
    const faults = texts('en').flatMap(({ where, value }) => englishFaults(value, where).map((f) => `${where}: ${f} in ${JSON.stringify(value)}`));
    expect(faults).toEqual([]);
  });
});

describe('both languages', () => {
  it('every key exists in both languages with the same interpolation variables and the same numbers', () => {
    const faults: string[] = [];
    for (const ns of NAMESPACES) {
      const en = leaves(resources.en[ns]);
      const fr = leaves(resources.fr[ns]);
      for (const key of new Set([...en.keys(), ...fr.keys()])) {
        const e = en.get(key);
        const f = fr.get(key);
        if (e === undefined || f === undefined) faults.push(`${ns}:${key} missing in ${e === undefined ? 'en' : 'fr'}`);
        else if (variables(e).join() !== variables(f).join()) faults.push(`${ns}:${key} en {${variables(e).join()}} ≠ fr {${variables(f).join()}}`);
        // Both say the same thing: a number written in one is written in the other (a delay, a limit, a step).
        else if (numbers(e) !== numbers(f)) faults.push(`${ns}:${key} states ${numbers(e) || 'no number'} in en and ${numbers(f) || 'no number'} in fr`);
      }
    }
    expect(faults).toEqual([]);
  });
});

/**
 * Words the portal counts (both languages, singular or plural). A number placeholder right before one of
 * them is a count: "1 lignes", "At most 1 files", "in 1 seconds" (issue 26 §2, decision 153).
 */
export const COUNTED_WORD =
  /^(?:files?|fichiers?|rows?|lignes?|lines?|seconds?|secondes?|minutes?|hours?|heures?|days?|jours?|patents?|brevets?|codes?|receipts?|récépissés?|entry|entries|characters?|caractères?|instructions?|users?|utilisateurs?|filters?|filtres?|fields?|champs?|annuity|annuities|annuités?|messages?|errors?|erreurs?|warnings?)(?![\p{L}-])/iu;

/** Every way a locale breaks the plural rule: a count without all its plural forms, or a counted word after another number. */
export function pluralFaults(locales: Record<'en' | 'fr', Map<string, string>>): string[] {
  const faults: string[] = [];
  for (const [locale, texts] of Object.entries(locales) as ['en' | 'fr', Map<string, string>][]) {
    for (const [key, value] of texts) {
      for (const m of value.matchAll(/\{\{\s*(\w+)[^}]*\}\}/g)) {
        const after = value.slice(m.index + m[0].length).replace(/^[ \u00A0\u202F]+/, '');
        if (m[1] !== 'count' && after !== value.slice(m.index + m[0].length) && COUNTED_WORD.test(after)) {
          faults.push(`${locale}:${key}: {{${m[1]}}} counts "${COUNTED_WORD.exec(after)![0]}": it must be {{count}} with plural forms`);
        }
      }
      if (!/\{\{\s*count\b/.test(value)) continue;
      const base = key.replace(/_(zero|one|two|few|many|other)$/, '');
      if (base === key) {
        faults.push(`${locale}:${key} has {{count}} but no plural forms (_one, _other…)`);
        continue;
      }
      for (const lang of ['en', 'fr'] as const) {
        for (const category of new Intl.PluralRules(lang).resolvedOptions().pluralCategories) {
          if (!locales[lang].has(`${base}_${category}`)) faults.push(`${lang}:${base}_${category} missing (plural form of ${locale}:${key})`);
        }
      }
    }
  }
  return [...new Set(faults)];
}

describe('plurals', () => {
  it('the checker finds each fault it is meant to find', () => {
    const of = (en: Record<string, string>, fr: Record<string, string>) => pluralFaults({ en: new Map(Object.entries(en)), fr: new Map(Object.entries(fr)) });
    expect(of({ a: '{{created}} receipts created' }, { a: '{{created}} récépissés créés' })).not.toEqual([]);
    expect(of({ a: 'At most {{max}} files' }, { a: 'Au plus {{max}} fichiers' })).not.toEqual([]);
    expect(of({ a: '{{count}} recovery codes left' }, { a: '{{count}} codes de secours restants' })).not.toEqual([]);
    expect(of({ a_one: '{{count}} file', a_other: '{{count}} files' }, { a_one: '{{count}} fichier', a_other: '{{count}} fichiers' })).not.toEqual([]);
    expect(
      of(
        { a_one: '{{count, number}} file', a_many: '{{count, number}} files', a_other: '{{count, number}} files' },
        { a_one: '{{count, number}} fichier', a_many: '{{count, number}} fichiers', a_other: '{{count, number}} fichiers' },
      ),
    ).toEqual([]);
    expect(of({ a: 'Rows: {{done}} of {{total}}', b: '{{max}} at most', c: 'Sent on {{date}}' }, { a: 'Lignes : {{done}} sur {{total}}', b: '{{max}} au plus', c: 'Envoyé le {{date}}' })).toEqual([]);
  });

  it('every text with a count has all the plural forms of both languages, and every number before a counted word is that count', () => {
    // Not the e-mails: their renderer hands i18next markers, never values (packages/mail/src/templates.ts), so no
    // plural form could be chosen; their durations are the spec's fixed ones (10 minutes, 72 hours) and their counts
    // stand in parentheses ("(3)").
    const faults = NAMESPACES.filter((ns) => ns !== 'emails').flatMap((ns) => pluralFaults({ en: leaves(resources.en[ns]), fr: leaves(resources.fr[ns]) }).map((f) => `${ns}: ${f}`));
    expect(faults).toEqual([]);
  });
});
