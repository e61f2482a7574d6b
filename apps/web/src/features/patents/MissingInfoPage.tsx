import { useCallback, useEffect, useMemo, useState } from 'react';
import { ActionIcon, Button, Group, Modal, Paper, Stack, Text, TextInput, ThemeIcon, Tooltip } from '@mantine/core';
import { IconCheck, IconCircleCheck, IconX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { useBlocker } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PATENT_MISSING_FIELDS, PATENT_MISSING_PAGE_SIZE, type PatentMissingField, type PatentRecordDto } from '@portal/contracts';
import { overlayProps } from '../../app/theme.ts';
import { LiveNotice } from '../../components/LiveNotice.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ServerList } from '../../components/list/ServerList.tsx';
import { useServerList } from '../../components/list/useServerList.ts';
import { ApiError } from '../../lib/api.ts';
import { msg } from '../../lib/message.tsx';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { fillMissingInfo, missingInfoQuery } from './api.ts';
import { usePatentsLive } from './live.ts';
import { dirtyRows, fillBody, MISSING_FIELDS, PATENT_POLL_MS, type MissingField, type RowEdits } from './model.ts';
import { patentRef } from './components/InstructionChoice.tsx';
import { patentCount } from './paging.ts';
import classes from './patents.module.css';

const col = createColumnHelper<PatentRecordDto>();
const DEFAULT_SORT: PatentMissingField = 'ReferenceClient';
const SEARCH_DEBOUNCE_MS = 500;
const COLUMN_KEY: Record<MissingField, string> = { noDepot: 'noDepot', NoPublication: 'noPublication', ReferenceClient: 'reference', Pays: 'office' };

/** One cell: its value, or an input when it is empty on the server. */
function Cell({ row, field, value, onEdit }: { row: PatentRecordDto; field: MissingField; value: string | undefined; onEdit: (row: PatentRecordDto, field: MissingField, value: string) => void }) {
  const { t } = useTranslation('patents');
  const current = row[field];
  if (current) return <span className={classes.nowrap}>{current}</span>;
  return (
    <TextInput
      size="xs"
      value={value ?? ''}
      onChange={(e) => onEdit(row, field, e.currentTarget.value)}
      aria-label={t('missing.edit', { field: t(`missing.columns.${COLUMN_KEY[field]}`), ref: patentRef(row) })}
      maxLength={field === 'Pays' ? 3 : field === 'ReferenceClient' ? 200 : 100}
      w={field === 'Pays' ? 80 : 170}
      data-testid={`missing-input-${field}`}
      autoComplete="off"
    />
  );
}

function RowActions({ row, edits, saving, onSave, onCancel }: { row: PatentRecordDto; edits: RowEdits | undefined; saving: boolean; onSave: (row: PatentRecordDto) => void; onCancel: (row: PatentRecordDto) => void }) {
  const { t } = useTranslation('patents');
  if (!edits || !Object.values(edits).some((v) => v.trim() !== '')) return null;
  const ref = patentRef(row);
  return (
    <Group gap={6} wrap="nowrap">
      <Tooltip label={t('missing.confirm', { ref })} withArrow>
        <ActionIcon color="green.8" variant="filled" size={36} aria-label={t('missing.confirm', { ref })} loading={saving} onClick={() => onSave(row)} data-testid="missing-save">
          <IconCheck size={18} aria-hidden="true" />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={t('missing.cancel', { ref })} withArrow>
        <ActionIcon color="gray" variant="light" c="dark.6" size={36} aria-label={t('missing.cancel', { ref })} onClick={() => onCancel(row)} data-testid="missing-cancel">
          <IconX size={18} aria-hidden="true" />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

/** Spec "Patents with missing information": 25 a page, sort ReferenceClient, search; empty cells edited in place, each row confirmed or cancelled; leaving with edits asks first. */
export function MissingInfoPage() {
  const { t } = useTranslation('patents');
  const queryClient = useQueryClient();
  const live = usePatentsLive();
  const state = useServerList({ defaultSort: { id: DEFAULT_SORT, desc: false }, sorts: PATENT_MISSING_FIELDS, debounceMs: SEARCH_DEBOUNCE_MS });
  const { debounced, sort, order, page } = state;
  const [edits, setEdits] = useState<ReadonlyMap<string, RowEdits>>(new Map());
  const list = useQuery({ ...missingInfoQuery({ search: debounced, sort, order, page, limit: PATENT_MISSING_PAGE_SIZE }), refetchInterval: live.interrupted ? PATENT_POLL_MS : false });
  const rows = list.data?.brevet_eptane ?? [];
  const meta = list.data?.meta;
  const dirty = dirtyRows(edits);

  // Leaving with unsaved edits asks first: a link inside the portal (the router's blocker) or closing / reloading the tab (beforeunload).
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty > 0 && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (dirty === 0) return undefined;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  const onEdit = useCallback(
    (row: PatentRecordDto, field: MissingField, value: string) =>
      setEdits((m) => {
        const next = new Map(m);
        next.set(row.idagenda, { ...next.get(row.idagenda), [field]: value });
        return next;
      }),
    [],
  );
  const drop = useCallback(
    (row: PatentRecordDto) =>
      setEdits((m) => {
        const next = new Map(m);
        next.delete(row.idagenda);
        return next;
      }),
    [],
  );

  const save = useMutation({
    mutationFn: async (row: PatentRecordDto) => {
      const body = fillBody(row, edits.get(row.idagenda));
      if (!body) return null;
      return fillMissingInfo(row.idagenda, body);
    },
    onSuccess: async (_result, row) => {
      drop(row);
      notifySuccess(msg('patents:missing.successTitle'), msg('patents:missing.success'));
      await queryClient.invalidateQueries({ queryKey: queryKeys.patents.all() });
    },
    onError: (error) => {
      notifyError(msg('patents:missing.errorTitle'), error instanceof ApiError && error.message && !error.isServerError ? error.message : msg('patents:missing.error'));
    },
  });
  const savingId = save.isPending ? save.variables.idagenda : null;
  const onSave = useCallback((row: PatentRecordDto) => save.mutate(row), [save]);

  const columns = useMemo(
    () => [
      ...MISSING_FIELDS.map((field) =>
        col.accessor(field, {
          id: field,
          header: () => t(`missing.columns.${COLUMN_KEY[field]}`),
          cell: (c) => <Cell row={c.row.original} field={field} value={edits.get(c.row.original.idagenda)?.[field]} onEdit={onEdit} />,
        }),
      ),
      col.display({
        id: 'actions',
        header: () => t('missing.columns.actions'),
        cell: (c) => <RowActions row={c.row.original} edits={edits.get(c.row.original.idagenda)} saving={savingId === c.row.original.idagenda} onSave={onSave} onCancel={drop} />,
      }),
    ],
    [t, edits, onEdit, onSave, drop, savingId],
  );

  const empty = (
    <Stack align="center" gap="xs" py="xl" data-testid="missing-empty">
      <ThemeIcon size={48} radius="xl" variant="light" color="gray">
        <IconCircleCheck size={26} aria-hidden="true" />
      </ThemeIcon>
      <Text fw={600}>{debounced.trim() ? t('missing.noMatch') : t('missing.empty')}</Text>
    </Stack>
  );

  return (
    <Stack gap="md" maw={1100} mx="auto" w="100%">
      <PageHeader title={t('missing.title')} description={t('missing.description')} />
      <LiveNotice show={live.interrupted} pollMs={PATENT_POLL_MS} />
      <Paper withBorder shadow="xs" p="md">
        <ServerList
          query={list}
          state={state}
          rows={rows}
          totalPages={meta?.totalPages}
          columns={columns}
          card={(r) => (
            <Stack gap="xs">
              {MISSING_FIELDS.map((field) => (
                <Group key={field} justify="space-between" wrap="nowrap" gap="sm">
                  <Text size="xs" c="dark.4" fw={600}>
                    {t(`missing.columns.${COLUMN_KEY[field]}`)}
                  </Text>
                  <Cell row={r} field={field} value={edits.get(r.idagenda)?.[field]} onEdit={onEdit} />
                </Group>
              ))}
              <Group justify="flex-end">
                <RowActions row={r} edits={edits.get(r.idagenda)} saving={savingId === r.idagenda} onSave={onSave} onCancel={drop} />
              </Group>
            </Stack>
          )}
          getRowId={(r) => r._id}
          rowProps={(r) => ({ 'data-idagenda': r.idagenda })}
          testId="missing-table"
          rowTestId="missing-row"
          empty={empty}
          error={<LoadError message={t('annuities.loadError')} retryLabel={t('annuities.retry')} onRetry={() => void list.refetch().catch(() => undefined)} testId="missing-load-error" />}
          count={{ text: meta ? patentCount(t, meta) : '', testId: 'missing-count', whileLoading: true }}
          search={{ label: t('missing.search'), placeholder: t('missing.searchPlaceholder'), testId: 'missing-search', fetching: list.isFetching }}
          minWidth={760}
          pagination={{ label: t('missing.pagination') }}
        />
      </Paper>
      <Modal opened={blocker.state === 'blocked'} onClose={() => blocker.reset?.()} title={t('missing.leaveTitle')} {...overlayProps()} data-testid="missing-leave">
        <Stack gap="md">
          <Text size="sm">{t('missing.leaveText', { count: dirty })}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus data-testid="missing-stay">
              {t('missing.stay')}
            </Button>
            <Button color="red.8" onClick={() => blocker.proceed?.()} data-testid="missing-leave-confirm">
              {t('missing.leave')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
