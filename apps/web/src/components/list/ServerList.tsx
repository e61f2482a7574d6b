import type { ReactNode } from 'react';
import { Group, Paper, ScrollArea, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ColumnDef, SortingState } from '@tanstack/react-table';
import { Loader } from '../Loader.tsx';
import { Pagination } from '../Pagination.tsx';
import { SearchInput } from '../SearchInput.tsx';
import { SortableTable } from '../SortableTable.tsx';
import type { ServerListState } from './useServerList.ts';
import classes from './ServerList.module.css';

/** The portal's phone width (the navigation bar's burger menu starts there too): below it every list shows cards. */
export const PHONE_QUERY = '(max-width: 40em)';

type DataAttributes = { className?: string | undefined; [data: `data-${string}`]: string | undefined };

export interface ServerListProps<T> {
  /** The page's query (TanStack Query): pending shows the loader, error shows `error`. */
  query: { isPending: boolean; isError: boolean };
  /** The hook's state: the table's sort headers and the pagination drive it. Absent for a list read whole (no pages). */
  state?: Pick<ServerListState<string>, 'sorting' | 'setSorting' | 'page' | 'setPage' | 'search' | 'setSearch' | 'limit' | 'setLimit'>;
  /** The table sorts its rows itself, from this order (a list read whole, or a page whose API has no sort). */
  clientSorting?: SortingState;
  rows: T[];
  totalPages?: number | undefined;
  /** The table's columns on a desktop; a list without columns shows its cards at every width. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns?: ColumnDef<T, any>[];
  /** The body of one phone card (the card itself, an <li>, is the list's). */
  card: (row: T) => ReactNode;
  /** Attributes of a table row and of a phone card (a state class, data-* for styles and tests). */
  rowProps?: (row: T) => DataAttributes;
  /** Attributes of a phone card when they differ from the row's. */
  cardProps?: (row: T) => DataAttributes;
  getRowId: (row: T) => string;
  /** data-testid of the table and of the list of cards (the same, so tests find either). */
  testId: string;
  /** data-testid of each row and each card. */
  rowTestId: string;
  empty: ReactNode;
  error: ReactNode;
  /** The count line, announced politely; absent on a screen that has none. */
  count?: { text: string; testId?: string; whileLoading?: boolean };
  /** Above the cards on a phone (a "select all" where the table has it in a header). */
  cardsHeader?: ReactNode;
  /** The search box of the list (bound to the hook's search): its texts and test id; `label` shows above it, `ariaLabel` names it without one. */
  search?: { placeholder: string; label?: string; ariaLabel?: string; testId: string; fetching: boolean };
  /** The page-size picker (bound to the hook's limit). */
  pageSize?: { sizes: readonly number[]; label: string; testId: string };
  /** A screen's own filters, beside the search box. */
  filters?: ReactNode;
  /** A screen's actions, at the end of the bar (a bulk action). */
  actions?: ReactNode;
  /** A bar of the screen's own making, in place of the one search / filters / page size / actions build. */
  toolbar?: ReactNode;
  /** The table's narrowest width (it scrolls sideways below). */
  minWidth?: number;
  /** Where the cards start when wider than a phone (a table of many columns): a media query, PHONE_QUERY by default. */
  cardsQuery?: string;
  /** Cards side by side from the `xs` breakpoint (two) instead of one per line. */
  cardsGrid?: boolean;
  /** Beside the pages, at their start (a page-size picker of the screen's own); shown even with one page. */
  footer?: ReactNode;
  /** A card's inner spacing (a card of many fields wants more room). */
  cardPadding?: 'sm' | 'md';
  onRowClick?: (row: T) => void;
  pagination?: { label?: string; siblings?: number; boundaries?: number; testId?: string };
  /** The empty state stands alone, without the table's headers (the table only shows when there are rows). */
  emptyWithoutTable?: boolean;
}

/**
 * One server-paged list (model: Outline's PaginatedList): the toolbar, the count, the loading / error / empty
 * states, a sortable table on a desktop and one card per row on a phone, and the pages. A screen declares its
 * columns, its card and its filters; the sort and the paging are the server's.
 */
export function ServerList<T>({ query, state, clientSorting, rows, totalPages, columns, card, rowProps, cardProps = rowProps, getRowId, testId, rowTestId, empty, error, count, cardsHeader, search, pageSize, filters, actions, toolbar, minWidth, onRowClick, pagination, emptyWithoutTable = false, cardPadding = 'sm', cardsQuery = PHONE_QUERY, cardsGrid = false, footer }: ServerListProps<T>) {
  const phone = useMediaQuery(PHONE_QUERY);
  const cardsWidth = useMediaQuery(cardsQuery);
  const countLine = count ? (
    <Text size="sm" c="dark.4" aria-live="polite" {...(count.testId ? { 'data-testid': count.testId } : {})}>
      {count.text}
    </Text>
  ) : null;
  const loaded = !query.isPending && !query.isError;
  const searchBox =
    search && state ? (
      <SearchInput
        value={state.search}
        onValue={state.setSearch}
        fetching={search.fetching}
        placeholder={search.placeholder}
        {...(search.label ? { label: search.label } : {})}
        {...(search.ariaLabel ? { 'aria-label': search.ariaLabel } : {})}
        data-testid={search.testId}
        w={{ base: '100%', sm: 320 }}
      />
    ) : null;
  const sizePicker =
    pageSize && state ? (
      <Select
        label={pageSize.label}
        data={pageSize.sizes.map((n) => ({ value: String(n), label: String(n) }))}
        value={String(state.limit)}
        onChange={(v) => {
          const n = Number(v);
          if (pageSize.sizes.includes(n)) state.setLimit(n);
        }}
        allowDeselect={false}
        w={110}
        data-testid={pageSize.testId}
      />
    ) : null;
  const bar =
    toolbar ??
    (searchBox || filters || sizePicker || actions ? (
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <Group align="flex-end" gap="md" wrap="wrap" w={{ base: '100%', sm: 'auto' }}>
          {searchBox}
          {filters}
        </Group>
        {sizePicker}
        {actions}
      </Group>
    ) : null);
  const cards =
    rows.length === 0 ? (
      empty
    ) : (
      <CardList grid={cardsGrid} testId={testId}>
        {rows.map((row) => {
          const extra = cardProps?.(row);
          return (
            <Paper key={getRowId(row)} component="li" withBorder p={cardPadding} radius="md" data-testid={rowTestId} {...extra}>
              {card(row)}
            </Paper>
          );
        })}
      </CardList>
    );
  const pages =
    state && totalPages !== undefined && totalPages > 1 ? (
      <Pagination
        total={totalPages}
        value={state.page}
        onChange={state.setPage}
        siblings={pagination?.siblings ?? (phone ? 0 : 2)}
        {...(pagination?.boundaries !== undefined ? { boundaries: pagination.boundaries } : {})}
        {...(pagination?.label ? { 'aria-label': pagination.label } : {})}
        {...(pagination?.testId ? { 'data-testid': pagination.testId } : {})}
      />
    ) : null;
  const body = query.isPending ? (
    <Loader loading />
  ) : query.isError ? (
    error
  ) : cardsWidth || !columns || (emptyWithoutTable && rows.length === 0) ? (
    cardsHeader && rows.length > 0 ? (
      <Stack gap="sm">
        {cardsHeader}
        {cards}
      </Stack>
    ) : (
      cards
    )
  ) : (
    <ScrollArea type="auto">
      <SortableTable
        data={rows}
        columns={columns}
        {...(clientSorting ? { initialSorting: clientSorting } : state ? { manualSorting: { sorting: state.sorting, onSortingChange: state.setSorting } } : {})}
        rowTestId={rowTestId}
        testId={testId}
        empty={empty}
        {...(minWidth !== undefined ? { minWidth } : {})}
        getRowId={getRowId}
        {...(rowProps ? { rowProps } : {})}
        {...(onRowClick ? { onRowClick } : {})}
      />
    </ScrollArea>
  );
  return (
    <Stack gap="md">
      {bar}
      {(count?.whileLoading || loaded) && countLine}
      {body}
      {footer !== undefined ? (
        <Group justify="space-between" gap="sm" wrap="wrap">
          {footer}
          {pages}
        </Group>
      ) : (
        pages && <Group justify="center">{pages}</Group>
      )}
    </Stack>
  );
}

/** The cards' list: one per line, or two side by side from `xs` (a grid). */
function CardList({ grid, testId, children }: { grid: boolean; testId: string; children: ReactNode }) {
  return grid ? (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" component="ul" className={classes.cards} data-testid={testId}>
      {children}
    </SimpleGrid>
  ) : (
    <Stack gap="sm" component="ul" className={classes.cards} data-testid={testId}>
      {children}
    </Stack>
  );
}
