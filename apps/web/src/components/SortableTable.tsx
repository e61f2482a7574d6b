import { useState, type ReactNode } from 'react';
import { Group, Table, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import {
  flexRender,
  getCoreRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type PaginationState,
  type Row,
  type SortingState,
} from '@tanstack/react-table';
import classes from './SortableTable.module.css';

interface Props<T> {
  data: T[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<T, any>[];
  initialSorting?: SortingState;
  /**
   * Server-side sorting: the caller holds the sort state and sends it to the API; the rows are shown
   * in the order they come (TanStack manual sorting). Client-side sorting when absent.
   */
  manualSorting?: { sorting: SortingState; onSortingChange: (sorting: SortingState) => void };
  /** Client-side paging (controlled); no paging when absent. */
  pagination?: PaginationState;
  onRowClick?: ((row: T) => void) | undefined;
  rowTestId?: string;
  empty: ReactNode;
  minWidth?: number;
  testId?: string;
  getRowId?: (row: T) => string;
  /** Extra attributes of a row (a state class, data-* for styles and tests). */
  rowProps?: (row: T) => { className?: string | undefined; [data: `data-${string}`]: string | undefined };
}

/** A TanStack table with clickable sort headers (aria-sort), optional client paging and keyboard-reachable clickable rows. */
export function SortableTable<T>({ data, columns, initialSorting = [], manualSorting, pagination, onRowClick, rowTestId, empty, minWidth, testId, getRowId, rowProps }: Props<T>) {
  const [localSorting, setLocalSorting] = useState<SortingState>(initialSorting);
  const sorting = manualSorting?.sorting ?? localSorting;
  const table = useReactTable({
    data,
    columns,
    state: pagination ? { sorting, pagination } : { sorting },
    onSortingChange: (updater) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      if (manualSorting) manualSorting.onSortingChange(next);
      else setLocalSorting(next);
    },
    getCoreRowModel: getCoreRowModel(),
    ...(manualSorting ? { manualSorting: true, enableSortingRemoval: false, sortDescFirst: false } : { getSortedRowModel: getSortedRowModel() }),
    ...(pagination ? { getPaginationRowModel: getPaginationRowModel(), manualPagination: false } : {}),
    ...(getRowId ? { getRowId } : {}),
  });

  const open = (row: Row<T>) => onRowClick?.(row.original);

  return (
    <Table striped highlightOnHover={!!onRowClick} verticalSpacing="sm" miw={minWidth} data-testid={testId}>
      <Table.Thead>
        {table.getHeaderGroups().map((hg) => (
          <Table.Tr key={hg.id}>
            {hg.headers.map((h) => {
              if (!h.column.getCanSort()) {
                return (
                  <Table.Th key={h.id} style={{ whiteSpace: 'nowrap' }}>
                    <Text fw={650} size="sm" c="dark.6">
                      {flexRender(h.column.columnDef.header, h.getContext())}
                    </Text>
                  </Table.Th>
                );
              }
              const sorted = h.column.getIsSorted();
              const Icon = sorted === 'asc' ? IconArrowUp : sorted === 'desc' ? IconArrowDown : IconArrowsSort;
              return (
                <Table.Th key={h.id} aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'}>
                  <UnstyledButton onClick={h.column.getToggleSortingHandler()} className={classes.sort} data-testid={`sort-${h.column.id}`}>
                    <Group gap={4} wrap="nowrap">
                      {/* A long name wraps between its words (the arrow stays beside its last line) rather than widening the table past the screen. */}
                      <span style={{ whiteSpace: 'normal', minWidth: 0 }}>{flexRender(h.column.columnDef.header, h.getContext())}</span>
                      <Icon size={14} aria-hidden="true" opacity={sorted ? 1 : 0.45} />
                    </Group>
                  </UnstyledButton>
                </Table.Th>
              );
            })}
          </Table.Tr>
        ))}
      </Table.Thead>
      <Table.Tbody>
        {table.getRowModel().rows.map((row) => (
          <Table.Tr
            key={row.id}
            {...rowProps?.(row.original)}
            className={[onRowClick ? classes.clickRow : undefined, rowProps?.(row.original).className].filter(Boolean).join(' ') || undefined}
            onClick={onRowClick ? () => open(row) : undefined}
            onKeyDown={
              onRowClick
                ? (e) => {
                    if (e.target === e.currentTarget && (e.key === 'Enter' || e.key === ' ')) {
                      e.preventDefault();
                      open(row);
                    }
                  }
                : undefined
            }
            tabIndex={onRowClick ? 0 : undefined}
            data-testid={rowTestId}
          >
            {row.getVisibleCells().map((cell) => (
              <Table.Td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</Table.Td>
            ))}
          </Table.Tr>
        ))}
        {data.length === 0 && (
          <Table.Tr>
            <Table.Td colSpan={columns.length}>{empty}</Table.Td>
          </Table.Tr>
        )}
      </Table.Tbody>
    </Table>
  );
}
