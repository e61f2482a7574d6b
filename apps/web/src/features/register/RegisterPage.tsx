import { useState } from 'react';
import { Anchor, Badge, Button, Group, Modal, Pagination, Paper, SegmentedControl, SimpleGrid, Stack, Text, Textarea, ThemeIcon } from '@mantine/core';
import { IconCheck, IconExternalLink, IconNote, IconScale } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { RegisterDiscrepancyDto } from '@portal/contracts';
import { LoadError } from '../../components/LoadError.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PHONE_QUERY } from '../../components/list/ServerList.tsx';
import { formatDay, formatNumber } from '../../lib/format.ts';
import { msg } from '../../lib/message.tsx';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { SyncPanel } from './SyncPanel.tsx';
import { acceptDiscrepancy, DISCREPANCY_PAGE_SIZE, discrepanciesQuery, keepDiscrepancy, useRegisterLive, type DiscrepancyKind } from './registerApi.ts';

const KINDS = ['register_paid', 'register_lapsed', 'instruction_on_lapsed'] as const;
/** The register events a discrepancy names by their own code; the EP file's statuses (`status:revoked`, …) read as one. */
const EVENT_CODES: ReadonlySet<string> = new Set(['RFEE', 'PGFP', 'PLFP', 'PG25']);

function Line({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dark.4">
        {label}
      </Text>
      <Text size="sm" className="portal-break" data-testid={testId}>
        {value || '—'}
      </Text>
    </Stack>
  );
}

function DiscrepancyCard({ d, onKeep }: { d: RegisterDiscrepancyDto; onKeep: (d: RegisterDiscrepancyDto) => void }) {
  const { t } = useTranslation('register');
  const queryClient = useQueryClient();
  const accept = useMutation({
    mutationFn: () => acceptDiscrepancy(d._id),
    onSuccess: async () => {
      notifySuccess(msg('register:list.accepted'));
      await queryClient.invalidateQueries({ queryKey: ['register', 'discrepancies'] });
    },
    onError: () => notifyError(msg('register:list.actionError')),
  });
  const number = d.numero_publication ?? d.numero_depot ?? d.patent_key;
  // A national patent's discrepancy comes from its office's INPADOC event (decision 214); an EP one from the EP file.
  const country = d.pays ?? 'EP';
  const national = country !== 'EP' && country !== 'UP';
  const event = t(`events.${EVENT_CODES.has(d.register_code) ? d.register_code : 'status'}`);
  return (
    <Paper withBorder p="md" data-testid="register-discrepancy" component="li" style={{ listStyle: 'none' }}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <Stack gap={2} miw={0}>
            <Text fw={600} className="portal-break" data-testid="register-discrepancy-number">
              {number}
            </Text>
            <Text size="sm" c="dark.4">
              {d.reference_client ?? ''}
            </Text>
          </Stack>
          <Badge variant="light" color={d.kind === 'register_paid' ? 'blue' : 'red'} c={d.kind === 'register_paid' ? 'blue.9' : 'red.9'} tt="none" data-testid="register-discrepancy-kind">
            {t(`kinds.${d.kind}`)}
          </Badge>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
          <Line label={t('list.office')} value={t('list.officeValue', { country, event })} testId="register-discrepancy-office" />
          <Line label={t('list.year')} value={t('list.yearValue', { year: formatNumber(d.annuity_year) })} />
          <Line label={t('list.portal')} value={t(`states.${d.portal_state}`)} testId="register-discrepancy-portal" />
          <Line label={t('list.register')} value={t(`says.${d.kind}`, { day: formatDay(d.register_on) })} testId="register-discrepancy-register" />
        </SimpleGrid>
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Anchor href={d.register_url} target="_blank" rel="noopener noreferrer" size="sm" data-testid="register-discrepancy-link">
            <Group gap={4} wrap="nowrap" component="span">
              {national ? t('list.openNational', { number, country }) : t('list.openRegister', { number })}
              <IconExternalLink size={14} aria-hidden="true" />
            </Group>
          </Anchor>
          <Group gap="xs" wrap="wrap">
            <Button variant="default" leftSection={<IconNote size={16} aria-hidden="true" />} onClick={() => onKeep(d)} data-testid="register-keep">
              {t('list.keep')}
            </Button>
            <Button leftSection={<IconCheck size={16} aria-hidden="true" />} onClick={() => accept.mutate()} loading={accept.isPending} data-testid="register-accept">
              {t('list.accept')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Paper>
  );
}

function KeepModal({ d, onClose }: { d: RegisterDiscrepancyDto | null; onClose: () => void }) {
  const { t } = useTranslation('register');
  const queryClient = useQueryClient();
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const keep = useMutation({
    mutationFn: () => keepDiscrepancy(d!._id, note.trim()),
    onSuccess: async () => {
      notifySuccess(msg('register:list.kept'));
      setNote('');
      onClose();
      await queryClient.invalidateQueries({ queryKey: ['register', 'discrepancies'] });
    },
    onError: () => notifyError(msg('register:list.actionError')),
  });
  const submit = () => {
    if (note.trim() === '') return setError(t('keep.required'));
    setError(null);
    keep.mutate();
  };
  return (
    <Modal opened={d !== null} onClose={onClose} title={t('keep.title')} centered>
      <Stack gap="sm">
        <Text size="sm">{t('keep.explain')}</Text>
        <Textarea label={t('keep.note')} value={note} onChange={(e) => setNote(e.currentTarget.value)} error={error} maxLength={1000} autosize minRows={3} required data-testid="register-keep-note" />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {t('keep.cancel')}
          </Button>
          <Button onClick={submit} loading={keep.isPending} data-testid="register-keep-save">
            {t('keep.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Issue 29 §3: the sync's progress and the discrepancies between the portal and the EP register, with staff's two actions. */
export function RegisterPage() {
  const { t } = useTranslation('register');
  useRegisterLive();
  const [kind, setKind] = useState<DiscrepancyKind | null>(null);
  const [page, setPage] = useState(1);
  const [keeping, setKeeping] = useState<RegisterDiscrepancyDto | null>(null);
  // On a phone the four filters stack: four columns of wrapped words would be unreadable.
  const phone = useMediaQuery(PHONE_QUERY);
  const list = useQuery(discrepanciesQuery({ page, kind }));
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / DISCREPANCY_PAGE_SIZE));
  return (
    <Stack gap="lg" maw={1200} mx="auto" w="100%">
      <PageHeader title={t('title')} description={t('description')} />
      <SyncPanel />
      <Stack gap="sm">
        <SegmentedControl
          value={kind ?? 'all'}
          onChange={(v) => {
            setKind(v === 'all' ? null : KINDS.find((k) => k === v) ?? null);
            setPage(1);
          }}
          data={[{ value: 'all', label: t('filters.all') }, ...KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))]}
          aria-label={t('filters.label')}
          orientation={phone ? 'vertical' : 'horizontal'}
          fullWidth
          styles={{ label: { whiteSpace: 'normal' } }}
          data-testid="register-filter"
        />
        {list.isError ? (
          <LoadError message={t('list.loadError')} retryLabel={t('list.retry')} onRetry={() => {
              list.refetch().catch(() => undefined);
            }} testId="register-load-error" />
        ) : list.data && list.data.data.length === 0 ? (
          <Stack align="center" gap="xs" py="xl" data-testid="register-empty">
            <ThemeIcon size={48} radius="xl" variant="light" color="gray">
              <IconScale size={26} aria-hidden="true" />
            </ThemeIcon>
            <Text fw={600}>{t('list.empty')}</Text>
          </Stack>
        ) : (
          <>
            <Text size="sm" c="dark.4" data-testid="register-total">
              {t('list.total', { count: list.data?.total ?? 0 })}
            </Text>
            <Stack gap="sm" component="ul" p={0} m={0}>
              {(list.data?.data ?? []).map((d) => (
                <DiscrepancyCard key={d._id} d={d} onKeep={setKeeping} />
              ))}
            </Stack>
            {pages > 1 && <Pagination value={page} onChange={setPage} total={pages} />}
          </>
        )}
      </Stack>
      <KeepModal d={keeping} onClose={() => setKeeping(null)} />
    </Stack>
  );
}
