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
