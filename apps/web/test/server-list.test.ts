import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MantineProvider } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { describe, expect, it } from 'vitest';
import { ServerList, type ServerListProps } from '../src/components/list/ServerList.tsx';
import { serverSort } from '../src/components/list/useServerList.ts';

describe('serverSort', () => {
  const sorts = ['name', 'date'] as const;
  const byDate = { id: 'date', desc: true } as const;
  it('sends the sorted column and its order when the server knows it', () => {
    expect(serverSort([{ id: 'name', desc: false }], sorts, byDate)).toEqual({ sort: 'name', order: 'asc' });
    expect(serverSort([{ id: 'name', desc: true }], sorts, byDate)).toEqual({ sort: 'name', order: 'desc' });
  });
  it('falls back to the default column for a column the server does not sort', () => {
    expect(serverSort([{ id: 'status', desc: false }], sorts, byDate)).toEqual({ sort: 'date', order: 'asc' });
  });
  it('falls back to the default sort and order when nothing is sorted', () => {
    expect(serverSort([], sorts, byDate)).toEqual({ sort: 'date', order: 'desc' });
    expect(serverSort([], sorts, { id: 'name', desc: false })).toEqual({ sort: 'name', order: 'asc' });
  });
});

interface Row {
  id: string;
  name: string;
}
const col = createColumnHelper<Row>();
const columns = [col.accessor('name', { id: 'name', header: () => 'Name' }), col.display({ id: 'actions', header: () => 'Actions' })];
const rows: Row[] = [
  { id: 'a', name: 'Alpha' },
  { id: 'b', name: 'Beta' },
];
const state = { sorting: [{ id: 'name', desc: false }], setSorting: () => undefined, page: 1, setPage: () => undefined, search: 'alp', setSearch: () => undefined, limit: 10, setLimit: () => undefined };

function render(props: Partial<ServerListProps<Row>>): string {
  const list: ServerListProps<Row> = {
    query: { isPending: false, isError: false },
    state,
    rows,
    totalPages: 1,
    columns,
    card: (r) => createElement('span', null, `card ${r.name}`),
    getRowId: (r) => r.id,
    testId: 'things',
    rowTestId: 'thing',
    empty: createElement('p', { 'data-testid': 'things-empty' }, 'Nothing'),
    error: createElement('p', { 'data-testid': 'things-error', role: 'alert' }, 'Broken'),
    count: { text: '2 things', testId: 'things-count' },
    minWidth: 600,
    ...props,
  };
  // Server rendering: no media query matches, so the desktop layout (the table) unless the list has no columns.
  return renderToStaticMarkup(createElement(MantineProvider, null, createElement(ServerList<Row>, list)));
}

describe('ServerList', () => {
  it('shows a table whose sortable headers carry aria-sort, one row per item, and the count', () => {
    const html = render({});
    expect(html).toContain('<table');
    expect(html).toContain('data-testid="things"');
    expect(html.match(/data-testid="thing"/g)).toHaveLength(2);
    expect(html).toMatch(/aria-sort="ascending"/);
    expect(html).toContain('data-testid="sort-name"');
    expect(html).toMatch(/aria-live="polite"[^>]*data-testid="things-count"[^>]*>2 things</);
  });
  it('shows the loader while pending, without rows or count', () => {
    const html = render({ query: { isPending: true, isError: false } });
    expect(html).not.toContain('data-testid="thing"');
    expect(html).not.toContain('things-count');
  });
  it('shows the error in place of the rows', () => {
    const html = render({ query: { isPending: false, isError: true } });
    expect(html).toContain('data-testid="things-error"');
    expect(html).not.toContain('data-testid="thing"');
  });
  it('keeps the count while loading when the screen asks for it', () => {
    const html = render({ query: { isPending: true, isError: false }, count: { text: '', testId: 'things-count', whileLoading: true } });
    expect(html).toContain('data-testid="things-count"');
  });
  it('shows the empty state inside the table, or alone when asked', () => {
    expect(render({ rows: [] })).toMatch(/<table[\s\S]*things-empty/);
    const alone = render({ rows: [], emptyWithoutTable: true });
    expect(alone).toContain('things-empty');
    expect(alone).not.toContain('<table');
  });
  it('shows cards (a list of items) when the list has no columns', () => {
    const html = render({ columns: undefined, cardProps: (r) => ({ 'data-id': r.id }) });
    expect(html).not.toContain('<table');
    expect(html).toMatch(/<ul[^>]*data-testid="things"/);
    expect(html).toMatch(/<li[^>]*data-testid="thing"[^>]*data-id="a"|<li[^>]*data-id="a"[^>]*data-testid="thing"/);
    expect(html).toContain('card Beta');
  });
  it('binds its search box and page-size picker to the state, with the names the screen gives', () => {
    const html = render({ search: { placeholder: 'Find', ariaLabel: 'Search things', testId: 'things-search', fetching: false }, pageSize: { sizes: [10, 20], label: 'Per page', testId: 'things-size' } });
    expect(html).toMatch(/<input[^>]*type="search"[^>]*/);
    expect(html).toMatch(/aria-label="Search things"/);
    expect(html).toMatch(/data-testid="things-search"[^>]*value="alp"|value="alp"[^>]*data-testid="things-search"/);
    expect(html).toContain('Per page');
    expect(html).toMatch(/data-testid="things-size"[^>]*value="10"|value="10"[^>]*data-testid="things-size"/);
  });
  it('shows the pages only when there is more than one, with their name', () => {
    expect(render({})).not.toContain('aria-label="Pages"');
    expect(render({ totalPages: 3, pagination: { label: 'Pages' } })).toContain('aria-label="Pages"');
  });
  it('lays its cards two by two when asked (a grid), one per line otherwise', () => {
    expect(render({ columns: undefined, cardsGrid: true })).toMatch(/<ul[^>]*mantine-SimpleGrid-root[^>]*data-testid="things"|<ul[^>]*data-testid="things"[^>]*mantine-SimpleGrid-root/);
    expect(render({ columns: undefined })).not.toContain('SimpleGrid');
  });
  it('puts a footer of the screen beside the pages, even with one page', () => {
    const footer = createElement('p', { 'data-testid': 'things-footer' }, 'Per page');
    expect(render({ footer })).toContain('data-testid="things-footer"');
    expect(render({ footer, totalPages: 3, pagination: { label: 'Pages' } })).toMatch(/things-footer[\s\S]*aria-label="Pages"/);
  });
});
