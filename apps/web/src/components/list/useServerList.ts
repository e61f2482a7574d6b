import { useCallback, useState } from 'react';
import { useDebouncedValue } from '@mantine/hooks';
import type { SortingState } from '@tanstack/react-table';

export interface ServerListOptions<S extends string> {
  /** The sort the screen opens with, and falls back to when a header would clear it. */
  defaultSort: { id: S; desc: boolean };
  /** The column ids the server sorts by; any other id sends the default. */
  sorts: readonly S[];
  /** Debounce of the search box before it reaches the query key (ms). */
  debounceMs?: number;
  /** The page size the screen opens with (a screen with a size picker changes it through setLimit). */
  defaultLimit?: number;
  /** Debounce of the page before it reaches the query (a run of clicks on "next" asks the server once); none when absent. */
  pageDebounceMs?: number;
}

/** What a server-paged screen sends to its query: the debounced search, the page, the page size and the validated sort. */
export interface ServerListState<S extends string> {
  search: string;
  setSearch: (value: string) => void;
  debounced: string;
  page: number;
  /** The page to send to the server: `page`, debounced when the screen asks for it (page 1 at once). */
  queryPage: number;
  setPage: (page: number) => void;
  limit: number;
  setLimit: (limit: number) => void;
  sorting: SortingState;
  setSorting: (next: SortingState) => void;
  sort: S;
  order: 'asc' | 'desc';
  /** Back to page 1 (a filter of the screen's own changed). */
  firstPage: () => void;
}

/** The sort to send: the first sorted column when the server knows it, else the default (a header never clears the sort). */
export function serverSort<S extends string>(sorting: SortingState, sorts: readonly S[], defaultSort: { id: S; desc: boolean }): { sort: S; order: 'asc' | 'desc' } {
  const first = sorting[0];
  if (!first) return { sort: defaultSort.id, order: defaultSort.desc ? 'desc' : 'asc' };
  const known = (sorts as readonly string[]).includes(first.id);
  return { sort: known ? (first.id as S) : defaultSort.id, order: first.desc ? 'desc' : 'asc' };
}

/**
 * The state of one server-paged list (model: Outline's PaginatedList): search debounced, a new search,
 * sort, page size or filter goes back to page 1, and the sort a header asks for is one the server knows.
 */
export function useServerList<S extends string>({ defaultSort, sorts, debounceMs = 500, defaultLimit = 25, pageDebounceMs = 0 }: ServerListOptions<S>): ServerListState<S> {
  const [search, setSearchValue] = useState('');
  const [debounced] = useDebouncedValue(search, debounceMs);
  const [page, setPage] = useState(1);
  const [debouncedPage] = useDebouncedValue(page, pageDebounceMs);
  const queryPage = pageDebounceMs === 0 || page === 1 ? page : debouncedPage;
  const [limit, setLimitValue] = useState(defaultLimit);
  const [sorting, setSortingValue] = useState<SortingState>([defaultSort]);
  const firstPage = useCallback(() => setPage(1), []);
  const setSearch = useCallback((value: string) => {
    setSearchValue(value);
    setPage(1);
  }, []);
  const setLimit = useCallback((value: number) => {
    setLimitValue(value);
    setPage(1);
  }, []);
  const setSorting = useCallback(
    (next: SortingState) => {
      setSortingValue(next.length ? next : [defaultSort]);
      setPage(1);
    },
    // The default is a literal of the screen: its identity does not matter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [defaultSort.id, defaultSort.desc],
  );
  const { sort, order } = serverSort(sorting, sorts, defaultSort);
  return { search, setSearch, debounced, page, queryPage, setPage, limit, setLimit, sorting, setSorting, sort, order, firstPage };
}
