import { useMemo, useState } from 'react';
import { Badge, Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch, IconUserPlus } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { PublicUser } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { CardLine } from '../../components/list/CardLine.tsx';
import { ServerList } from '../../components/list/ServerList.tsx';
import { usersQuery } from './api.ts';
import { filterUsers } from './filterUsers.ts';
import { ResetMfaButton } from '../mfa/ResetMfaButton.tsx';

const col = createColumnHelper<PublicUser>();
/** Mantine's badge keeps one line and cuts it with an ellipsis: a role's name wraps inside it instead. */
const ROLE_BADGE_STYLES = {
  root: { height: 'auto', minHeight: 'var(--badge-height)', paddingBlock: 2, maxWidth: '100%' },
  label: { whiteSpace: 'normal', overflow: 'visible', textOverflow: 'clip', overflowWrap: 'break-word', lineHeight: 1.3 },
} as const;
const joinSort = (a: string[]) => a.join(', ').toLowerCase();

/** The role in words (the labels of /add/user's select), whole: a badge that wraps rather than cuts the name, since user_agent_ledes, user_agent_annuites and user_annuites only differ at their ends. */
function RoleBadges({ user }: { user: PublicUser }) {
  const { t } = useTranslation('users');
  return (
    <Group gap={4}>
      {user.roles.map((r) => (
        <Badge key={r._id} variant="light" color={r.slug === 'admin' ? 'accent' : 'brand'} radius="sm" tt="none" styles={ROLE_BADGE_STYLES} data-testid="role-badge">
          {t(`roles.${r.slug}`)}
        </Badge>
      ))}
    </Group>
  );
}

/** The second factor's status (on / off), and its reset only where there is one to reset. */
function MfaCell({ user: u }: { user: PublicUser }) {
  const { t } = useTranslation('users');
  const queryClient = useQueryClient();
  return (
    <Group gap="xs" wrap="nowrap" data-testid="mfa-cell">
      <Badge variant="light" color={u.mfa_enabled ? 'teal' : 'gray'} radius="sm" tt="none" data-testid="mfa-status">
        {u.mfa_enabled ? t('mfa:security.on') : t('mfa:security.off')}
      </Badge>
      {u.mfa_enabled && (
        <ResetMfaButton
          userId={u._id}
          name={u.company_agent}
          isAdmin={u.roles.some((r) => r.slug === 'admin')}
          onReset={() => {
            queryClient.invalidateQueries({ queryKey: usersQuery.queryKey }).catch(() => undefined);
          }}
        />
      )}
    </Group>
  );
}

/** On a phone, one card per user: every column of the table. */
function UserCard({ user: u }: { user: PublicUser }) {
  const { t } = useTranslation('users');
  return (
    <Stack gap={6}>
      <Text fw={600} size="sm" className="portal-break">
        {u.company_agent}
      </Text>
      <Text size="sm" className="portal-break">
        {u.email}
      </Text>
      <RoleBadges user={u} />
      <CardLine label={t('list.columns.clientIds')} value={u.id_client.join(', ')} />
      <CardLine label={t('list.columns.cabinets')} value={u.cabinets.map((c) => c.name).join(', ')} />
      <CardLine label={t('list.columns.codes')} value={u.code.join(', ')} />
      <MfaCell user={u} />
    </Stack>
  );
}

export function UserListPage() {
  const { t } = useTranslation('users');
  const users = useQuery(usersQuery);
  const [search, setSearch] = useState('');

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
        cell: (c) => <RoleBadges user={c.row.original} />,
      }),
      col.accessor((u) => joinSort(u.cabinets.map((c) => c.name)), {
        id: 'cabinets',
        header: () => t('list.columns.cabinets'),
        cell: (c) => c.row.original.cabinets.map((cab) => cab.name).join(', '),
      }),
      col.accessor((u) => joinSort(u.code), { id: 'code', header: () => t('list.columns.codes'), cell: (c) => c.row.original.code.join(', ') }),
      // The second factor's status (on / off), and its reset only where there is one to reset.
      col.accessor((u) => (u.mfa_enabled ? 1 : 0), {
        id: 'mfa',
        header: () => t('mfa:security.sectionTitle'),
        cell: (c) => <MfaCell user={c.row.original} />,
      }),
    ],
    [t],
  );

  // By name, as the table opens: the phone's cards show the rows in this order.
  const data = useMemo(() => filterUsers(users.data ?? [], search).sort((a, b) => a.company_agent.localeCompare(b.company_agent)), [users.data, search]);

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
          <ServerList
            query={users}
            clientSorting={[{ id: 'company_agent', desc: false }]}
            rows={data}
            columns={columns}
            card={(u) => <UserCard user={u} />}
            getRowId={(u) => u._id}
            testId="user-table"
            rowTestId="user-row"
            minWidth={820}
            empty={
              <Text ta="center" c="dimmed" py="lg">
                {t('list.empty')}
              </Text>
            }
            error={
              <Text c="red.7" role="alert">
                {t('list.loadError')}
              </Text>
            }
          />
        </Stack>
      </Paper>
    </Stack>
  );
}
