import { useMemo, useState } from 'react';
import { Badge, Button, Group, Paper, ScrollArea, Stack, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort, IconSearch, IconUserPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type SortingState,
} from '@tanstack/react-table';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { PublicUser } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Loader } from '../../components/Loader.tsx';
import { usersQuery } from './api.ts';
import { filterUsers } from './filterUsers.ts';
import classes from './UserListPage.module.css';

const col = createColumnHelper<PublicUser>();
const joinSort = (a: string[]) => a.join(', ').toLowerCase();

export function UserListPage() {
  const { t } = useTranslation('users');
  const users = useQuery(usersQuery);
  const [search, setSearch] = useState('');
  const [sorting, setSorting] = useState<SortingState>([{ id: 'company_agent', desc: false }]);

  const columns = useMemo(
    () => [
      col.accessor('company_agent', { header: () => t('list.columns.name'), cell: (c) => <Text fw={550} size="sm">{c.getValue()}</Text> }),
      col.accessor('email', { header: () => t('list.columns.email'), cell: (c) => <Text size="sm">{c.getValue()}</Text> }),
      col.accessor((u) => joinSort(u.id_client), {
        id: 'id_client',
        header: () => t('list.columns.clientIds'),
        cell: (c) => c.row.original.id_client.join(', '),
      }),
      col.accessor((u) => joinSort(u.roles.map((r) => r.slug)), {
        id: 'roles',
        header: () => t('list.columns.roles'),
        cell: (c) => (
          <Group gap={4}>
            {c.row.original.roles.map((r) => (
              <Badge key={r._id} variant="light" color={r.slug === 'admin' ? 'accent' : 'brand'} radius="sm" tt="none">
                {r.slug}
              </Badge>
            ))}
          </Group>
        ),
      }),
      col.accessor((u) => joinSort(u.cabinets.map((c) => c.name)), {
        id: 'cabinets',
        header: () => t('list.columns.cabinets'),
        cell: (c) => c.row.original.cabinets.map((cab) => cab.name).join(', '),
      }),
      col.accessor((u) => joinSort(u.code), { id: 'code', header: () => t('list.columns.codes'), cell: (c) => c.row.original.code.join(', ') }),
    ],
    [t],
  );

  const data = useMemo(() => filterUsers(users.data ?? [], search), [users.data, search]);
  const table = useReactTable({
    data,
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });

  return (
    <Stack gap="lg">
      <PageHeader
        title={t('list.title')}
        description={t('list.description')}
        actions={
          <Button component={Link} to="/add/user" leftSection={<IconUserPlus size={16} aria-hidden="true" />} data-testid="link-add-user">
            {t('list.add')}
          </Button>
        }
      />
      <Paper withBorder shadow="xs" p="md">
        <Stack gap="md">
          <Group justify="space-between" wrap="wrap">
            <TextInput
              type="search"
              aria-label={t('list.search')}
              placeholder={t('list.search')}
              leftSection={<IconSearch size={16} aria-hidden="true" />}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              w={{ base: '100%', sm: 360 }}
              data-testid="user-search"
            />
            <Text size="sm" c="dimmed" aria-live="polite">
              {t('list.count', { count: data.length })}
            </Text>
          </Group>
          {users.isPending ? (
            <Loader loading />
          ) : users.isError ? (
            <Text c="red.7" role="alert">
              {t('list.loadError')}
            </Text>
          ) : (
            <ScrollArea type="auto">
              <Table striped highlightOnHover verticalSpacing="sm" miw={820} data-testid="user-table">
                <Table.Thead>
                  {table.getHeaderGroups().map((hg) => (
                    <Table.Tr key={hg.id}>
                      {hg.headers.map((h) => {
                        const sorted = h.column.getIsSorted();
                        const Icon = sorted === 'asc' ? IconArrowUp : sorted === 'desc' ? IconArrowDown : IconArrowsSort;
                        return (
                          <Table.Th key={h.id} aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'}>
                            <UnstyledButton onClick={h.column.getToggleSortingHandler()} className={classes.sort}>
                              <Group gap={4} wrap="nowrap">
                                <span>{flexRender(h.column.columnDef.header, h.getContext())}</span>
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
                    <Table.Tr key={row.id}>
                      {row.getVisibleCells().map((cell) => (
                        <Table.Td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                  {data.length === 0 && (
                    <Table.Tr>
                      <Table.Td colSpan={columns.length}>
                        <Text ta="center" c="dimmed" py="lg">
                          {t('list.empty')}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  )}
                </Table.Tbody>
              </Table>
            </ScrollArea>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
