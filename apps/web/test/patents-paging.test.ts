import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { cursorTo, patentCount } from '../src/features/patents/paging.ts';
import { i18nReady, loadNamespace, switchLanguage } from '../src/lib/i18n.ts';

const NNBSP = '\u202F';

describe('patent list paging (decision 174)', () => {
  it('the pager sends a cursor only to move one page from the page shown', () => {
    const meta = { currentPage: 7, next_cursor: 'N7', previous_cursor: 'P7' };
    expect(cursorTo(meta, 8)).toBe('N7');
    expect(cursorTo(meta, 6)).toBe('P7');
    expect(cursorTo(meta, 9)).toBeNull();
    expect(cursorTo(meta, 1)).toBeNull();
    expect(cursorTo({ currentPage: 1, next_cursor: null, previous_cursor: null }, 2)).toBeNull();
    expect(cursorTo(undefined, 2)).toBeNull();
  });

  it('a total the server stopped counting reads "more than N" in both languages; an exact one reads N', async () => {
    await i18nReady;
    await loadNamespace('patents');
    await switchLanguage('fr');
    const t = i18next.getFixedT(null, 'patents');
    expect(patentCount(t, { total: 1000, total_more: true })).toBe(`plus de 1${NNBSP}000 brevets`);
    expect(patentCount(t, { total: 12 })).toBe('12 brevets');
    await switchLanguage('en');
    const en = i18next.getFixedT(null, 'patents');
    expect(patentCount(en, { total: 1000, total_more: true })).toBe('more than 1,000 patents');
    expect(patentCount(en, { total: 1 })).toBe('1 patent');
  });
});
