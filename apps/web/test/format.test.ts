import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { resources } from '@portal/i18n';
import { formatDate, formatDay, formatMoney, formatNumber } from '../src/lib/format.ts';
import { i18nReady, loadAppTexts, loadNamespace, switchLanguage, WEB_NAMESPACES } from '../src/lib/i18n.ts';

/**
 * Issue 26 §2, decision 153: one number format and one day format per language for the whole interface.
 * The file list showed "40000 OK" and "69000 lignes sur 150000" beside "40 000 brevets", and every day
 * as "15-03-2025" in both languages.
 */
const NNBSP = '\u202F';
const NBSP = '\u00A0';

describe('numbers in the page’s language', () => {
  it('formatNumber writes French thousands with U+202F and English ones with a comma', () => {
    expect(formatNumber(40000, 'fr')).toBe(`40${NNBSP}000`);
    expect(formatNumber(40000, 'en')).toBe('40,000');
    expect(formatNumber(1234.5, 'fr')).toBe(`1${NNBSP}234,5`);
    expect(formatNumber(7, 'fr')).toBe('7');
  });

  it('formatMoney always writes the currency’s cents (the calls desk showed “3,520.4 EUR”), or none when whole', () => {
    expect(formatMoney('3520.4', 'EUR', { lang: 'en' })).toBe('€3,520.40');
    expect(formatMoney('3520.4', 'EUR', { lang: 'fr' })).toBe(`3${NNBSP}520,40${NBSP}€`);
    expect(formatMoney(260, 'GBP', { lang: 'en' })).toBe('£260.00');
    expect(formatMoney(108900, 'SEK', { lang: 'en', whole: true })).toBe(`SEK${NBSP}108,900`);
    expect(formatMoney('n/a', 'EUR', { lang: 'en' })).toBe('n/a');
  });
  it('every number interpolated into a web text goes through the same format', async () => {
    await i18nReady;
    await Promise.all([loadAppTexts(), ...(['patents', 'portfolio', 'mfa', 'receipts', 'analytics'] as const).map((ns) => loadNamespace(ns))]);
    await switchLanguage('fr');
    const fr = (key: string, values: Record<string, unknown>) => i18next.t(key, values);
    expect(fr('annuities:list.counts', { ok: 40000, nok: 1200, orange: 3, noDate: 0 })).toContain(`OK${NBSP}: 40${NNBSP}000`);
    expect(fr('annuities:list.counts', { ok: 40000, nok: 1200, orange: 3, noDate: 0 })).toContain(`1${NNBSP}200`);
    expect(fr('annuities:list.progress', { done: 69000, total: 150000 })).toBe(`Lignes${NBSP}: 69${NNBSP}000 sur 150${NNBSP}000`);
    expect(fr('portfolio:imports.progress', { done: 69000, total: 150000 })).toContain(`69${NNBSP}000`);
    expect(fr('receipts:uploads.progress', { done: 1500, total: 2000 })).toContain(`1${NNBSP}500`);
    expect(fr('portfolio:exports.cardMeta', { date: '15/03/2025', count: 40000 })).toContain(`40${NNBSP}000 brevets`);
    await switchLanguage('en');
    expect(i18next.t('annuities:list.counts', { ok: 40000, nok: 1200, orange: 3, noDate: 0 })).toContain('OK: 40,000');
    expect(i18next.t('annuities:list.progress', { done: 69000, total: 150000 })).toBe('Rows: 69,000 of 150,000');
    expect(i18next.t('portfolio:exports.cardMeta', { date: '15 Mar 2025', count: 1 })).toContain('1 patent');
    expect(i18next.t('portfolio:exports.cardMeta', { date: '15 Mar 2025', count: 1 })).not.toContain('patents');
  });

  it('no web text leaves a number placeholder unformatted', () => {
    // Placeholders that always hold a number; formatted sizes and dates have their own names (size, date).
    const NUMERIC = new Set(['count', 'max', 'min', 'done', 'total', 'ok', 'nok', 'orange', 'noDate', 'created', 'refused', 'inserted', 'updated', 'unchanged', 'rejected', 'seconds', 'minutes', 'hours', 'days', 'row', 'percent']);
    const faults: string[] = [];
    for (const lang of ['en', 'fr'] as const) {
      for (const ns of WEB_NAMESPACES) {
        const walk = (value: unknown, at: string) => {
          if (typeof value === 'string') {
            for (const m of value.matchAll(/\{\{\s*(\w+)\s*(,\s*[\w]+)?\s*\}\}/g)) if (NUMERIC.has(m[1]!) && !m[2]?.includes('number')) faults.push(`${lang}:${ns}:${at}: {{${m[1]}}}`);
          } else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, at ? `${at}.${k}` : k);
        };
        walk(resources[lang][ns], '');
      }
    }
    expect(faults).toEqual([]);
  });
});

describe('days in the page’s language', () => {
  it('French writes 15/03/2025, English 15 Mar 2025', () => {
    expect(formatDay('2025-03-15', 'fr')).toBe('15/03/2025');
    expect(formatDay('2025-03-15', 'en')).toBe(`15${NBSP}Mar${NBSP}2025`);
    expect(formatDay('2025-03-05', 'en')).toBe(`5${NBSP}Mar${NBSP}2025`);
    expect(formatDay('2025-12-31T10:00:00Z', 'fr')).toBe('31/12/2025');
    expect(formatDay('15-03-2025', 'fr')).toBe('');
    expect(formatDay(null, 'en')).toBe('');
  });

  it('a moment is written as its local calendar day; a bare server day is never shifted by the time zone', () => {
    expect(formatDate(new Date(2024, 0, 5), 'fr')).toBe('05/01/2024');
    expect(formatDate(new Date(2024, 0, 5), 'en')).toBe(`5${NBSP}Jan${NBSP}2024`);
    expect(formatDate('2024-01-05', 'fr')).toBe('05/01/2024');
    expect(formatDate('not a date', 'fr')).toBe('');
    expect(formatDate(null, 'en')).toBe('');
  });
});
