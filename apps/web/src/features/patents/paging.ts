import { useState } from 'react';
import type { TFunction } from 'i18next';
import type { PatentListMeta } from '@portal/contracts';

/** "N patents", or "more than N patents" when the server stopped counting a filtered list (decision 174). */
export const patentCount = (t: TFunction<'patents'>, meta: Pick<PatentListMeta, 'total' | 'total_more'>) =>
  meta.total_more ? t('annuities.countMore', { count: meta.total }) : t('annuities.count', { count: meta.total });

/** The cursor that reads `page` from the page `meta` describes: its next or previous page only. */
export const cursorTo = (meta: Pick<PatentListMeta, 'currentPage' | 'next_cursor' | 'previous_cursor'> | undefined, page: number): string | null =>
  (meta && (page === meta.currentPage + 1 ? meta.next_cursor : page === meta.currentPage - 1 ? meta.previous_cursor : null)) ?? null;

/**
 * The pager's next / previous by cursor (keyset paging, decision 174): moving one page from the page shown
 * sends that page's cursor, so a deep page costs the server what the first does; any other move (a page
 * number, a new sort or filter: another `basis`) goes by page number.
 */
export function usePageCursor(basis: string, setPage: (page: number) => void) {
  const [held, setHeld] = useState<{ page: number; cursor: string; basis: string } | null>(null);
  /** `meta`: the page shown when the pager moved. */
  const goTo = (page: number, meta: PatentListMeta | undefined) => {
    const cursor = cursorTo(meta, page);
    setHeld(cursor ? { page, cursor, basis } : null);
    setPage(page);
  };
  return { cursorFor: (page: number) => (held && held.page === page && held.basis === basis ? held.cursor : undefined), goTo };
}
