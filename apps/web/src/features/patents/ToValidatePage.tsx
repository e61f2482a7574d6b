import { useMemo, useState } from 'react';
import { Alert, Button, Checkbox, Group, List, Modal, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconAlertTriangle, IconChecks, IconCircleCheck } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { PATENT_TO_VALIDATE_PAGE_SIZE, PATENT_TO_VALIDATE_SORTS, type PatentRecordDto, type PatentToValidateSort, type RefusedInstructionRow } from '@portal/contracts';
import { overlayProps } from '../../app/theme.ts';
import { LiveNotice } from '../../components/LiveNotice.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PHONE_QUERY, ServerList } from '../../components/list/ServerList.tsx';
import { useServerList } from '../../components/list/useServerList.ts';
import { ApiError } from '../../lib/api.ts';
import { msg } from '../../lib/message.tsx';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { instructionsQuery, toValidateQuery, validateInstructions } from './api.ts';
import { usePatentsLive } from './live.ts';
import { formatDay, instructionLabels, PATENT_POLL_MS } from './model.ts';
import { patentRef } from './components/InstructionChoice.tsx';
import { patentCount } from './paging.ts';
import classes from './patents.module.css';

const col = createColumnHelper<PatentRecordDto>();
const DEFAULT_SORT: PatentToValidateSort = 'noDepot';
const SEARCH_DEBOUNCE_MS = 500;

/** Checked rows by id, with the version each was read at. */
type Checked = ReadonlyMap<string, number>;

/** Spec "Patents to validate": 10 a page, default sort numero_depot, a checkbox per row and select-all, validate after 'Are you sure?'. */
export function ToValidatePage() {
  const { t, i18n } = useTranslation('patents');
  const queryClient = useQueryClient();
  const phone = useMediaQuery(PHONE_QUERY);
  const live = usePatentsLive();
  const state = useServerList({ defaultSort: { id: DEFAULT_SORT, desc: false }, sorts: PATENT_TO_VALIDATE_SORTS, debounceMs: SEARCH_DEBOUNCE_MS });
  const { debounced, sort, order, page } = state;
  const [checked, setChecked] = useState<Checked>(new Map());
  const [refused, setRefused] = useState<RefusedInstructionRow[]>([]);
  const [confirming, { open: openConfirm, close: closeConfirm }] = useDisclosure(false);

  const instructions = useQuery(instructionsQuery);
  const labels = useMemo(() => instructionLabels(instructions.data ?? [], i18n.language), [instructions.data, i18n.language]);
  const list = useQuery({ ...toValidateQuery({ search: debounced, sort, order, page, limit: PATENT_TO_VALIDATE_PAGE_SIZE }), refetchInterval: live.interrupted ? PATENT_POLL_MS : false });
  const rows = useMemo(() => list.data?.brevet_eptane ?? [], [list.data]);
  const meta = list.data?.meta;
  const allChecked = rows.length > 0 && rows.every((r) => checked.has(r._id));
  const someChecked = rows.some((r) => checked.has(r._id));

  const toggle = (row: PatentRecordDto) =>
    setChecked((c) => {
      const next = new Map(c);
      if (next.has(row._id)) next.delete(row._id);
      else next.set(row._id, row.version);
      return next;
    });
  const toggleAll = () =>
    setChecked((c) => {
      const next = new Map(c);
      if (allChecked) for (const r of rows) next.delete(r._id);
      else for (const r of rows) next.set(r._id, r.version);
      return next;
    });

  const validate = useMutation({
    mutationFn: () => validateInstructions([...checked].map(([_id, version]) => ({ _id, version }))),
    onSuccess: async (result) => {
      closeConfirm();
      notifySuccess(msg('patents:validate.successTitle'), msg('patents:validate.success', { count: result.validated }));
      setChecked(new Map());
      setRefused([]);
      await queryClient.invalidateQueries({ queryKey: queryKeys.patents.all() });
    },
    onError: async (error) => {
      closeConfirm();
      if (error instanceof ApiError && error.notUpdated.length > 0) {
        setRefused(error.notUpdated);
        setChecked((c) => {
          const next = new Map(c);
          for (const r of error.notUpdated) if (r._id) next.delete(r._id);
          return next;
        });
        await queryClient.invalidateQueries({ queryKey: queryKeys.patents.all() });
        return;
      }
      notifyError(msg('patents:validate.errorTitle'), error instanceof ApiError && error.message ? error.message : msg('patents:validate.error'));
    },
  });

  const titleOf = (id: number | null) => (id === null ? '' : (labels.find((l) => l.id === id)?.title ?? String(id)));
  const columns = useMemo(
    () => [
      col.display({
        id: 'select',
        header: () => (
          <Checkbox aria-label={t('validate.selectAll')} checked={allChecked} indeterminate={someChecked && !allChecked} onChange={toggleAll} data-testid="validate-select-all" />
        ),
        cell: (c) => (
          <Checkbox
            aria-label={t('validate.selectRow', { ref: patentRef(c.row.original) })}
            checked={checked.has(c.row.original._id)}
            onChange={() => toggle(c.row.original)}
            data-testid="validate-select"
          />
        ),
      }),
      col.accessor('noDepot', { id: 'noDepot', header: () => t('validate.columns.noDepot'), cell: (c) => <span className={classes.nowrap}>{c.getValue() ?? ''}</span> }),
      col.accessor('NoPublication', { id: 'NoPublication', header: () => t('validate.columns.noPublication'), cell: (c) => <span className={classes.nowrap}>{c.getValue() ?? ''}</span> }),
      col.accessor('ReferenceClient', { id: 'ReferenceClient', header: () => t('validate.columns.reference'), cell: (c) => c.getValue() ?? '' }),
      col.accessor('id_instruction', {
        id: 'id_instruction',
        header: () => t('validate.columns.instruction'),
        cell: (c) => (
          <Text size="sm" fw={600} c="green.9" title={labels.find((l) => l.id === c.getValue())?.description}>
            {titleOf(c.getValue())}
          </Text>
        ),
      }),
      col.accessor('DonneurOrdre', { id: 'DonneurOrdre', header: () => t('validate.columns.agent'), cell: (c) => c.getValue() ?? '' }),
      col.accessor('DonneurOrdreAn', { id: 'DonneurOrdreAn', header: () => t('validate.columns.agentEn'), cell: (c) => c.getValue() ?? '' }),
      col.accessor('DateEcheance', { id: 'DateEcheance', header: () => t('validate.columns.dueDate'), cell: (c) => <span className={classes.nowrap}>{formatDay(c.getValue())}</span> }),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, labels, checked, allChecked, someChecked, rows],
  );

  const empty = (
    <Stack align="center" gap="xs" py="xl" data-testid="validate-empty">
      <ThemeIcon size={48} radius="xl" variant="light" color="gray">
        <IconCircleCheck size={26} aria-hidden="true" />
      </ThemeIcon>
      <Text fw={600}>{debounced.trim() ? t('validate.noMatch') : t('validate.empty')}</Text>
    </Stack>
  );

  const validateButton = (
    <Button leftSection={<IconChecks size={16} aria-hidden="true" />} disabled={checked.size === 0} onClick={openConfirm} data-testid="validate-button" fullWidth={!!phone}>
      {t('validate.button')} ({checked.size})
    </Button>
  );

  return (
    <Stack gap="md" maw={1200} mx="auto" w="100%">
      <PageHeader title={t('validate.title')} description={t('validate.description')} />
      <LiveNotice show={live.interrupted} pollMs={PATENT_POLL_MS} />
      {refused.length > 0 && (
        <Alert color="red" variant="light" role="alert" title={t('validate.refusedTitle')} icon={<IconAlertTriangle size={18} aria-hidden="true" />} withCloseButton onClose={() => setRefused([])} closeButtonLabel={t('detail.close')} data-testid="validate-refused">
          <Stack gap="xs">
            <Text size="sm">{t('validate.refusedText')}</Text>
            <List size="sm">
              {refused.map((r) => (
                <List.Item key={r._id ?? r.idagenda}>
                  <Text span fw={600} size="sm">
                    {[r.ReferenceClient, r.noDepot, r.Pays].filter(Boolean).join(' · ')}
                  </Text>
                  {' — '}
                  {r.reason}
                </List.Item>
              ))}
            </List>
          </Stack>
        </Alert>
      )}
      <Paper withBorder shadow="xs" p="md">
        <ServerList
          query={list}
          state={state}
          rows={rows}
          totalPages={meta?.totalPages}
          columns={columns}
          card={(r) => (
            <Group wrap="nowrap" align="flex-start" gap="sm">
              <Checkbox aria-label={t('validate.selectRow', { ref: patentRef(r) })} checked={checked.has(r._id)} onChange={() => toggle(r)} data-testid="validate-select" mt={2} />
              <Stack gap={2}>
                <Text fw={650} size="sm">
                  {r.ReferenceClient ?? ''}
                </Text>
                <Text size="xs" c="dark.4">
                  {[r.Pays, r.noDepot, r.NoPublication].filter(Boolean).join(' · ')}
                </Text>
                <Text size="sm" fw={600} c="green.9">
                  {titleOf(r.id_instruction)}
                </Text>
                <Text size="xs" c="dark.4">
                  {[r.DonneurOrdre, formatDay(r.DateEcheance)].filter(Boolean).join(' · ')}
                </Text>
              </Stack>
            </Group>
          )}
          cardsHeader={<Checkbox label={t('validate.selectAll')} checked={allChecked} indeterminate={someChecked && !allChecked} onChange={toggleAll} data-testid="validate-select-all" />}
          getRowId={(r) => r._id}
          rowProps={(r) => ({ className: classes.row, 'data-selected': checked.has(r._id) ? 'true' : undefined })}
          cardProps={(r) => ({ className: classes.card, 'data-selected': checked.has(r._id) ? 'true' : undefined })}
          testId="validate-table"
          rowTestId="validate-row"
          empty={empty}
          error={<LoadError message={t('annuities.loadError')} retryLabel={t('annuities.retry')} onRetry={() => void list.refetch().catch(() => undefined)} testId="validate-load-error" />}
          count={{ text: meta ? patentCount(t, meta) : '', testId: 'validate-count', whileLoading: true }}
          search={{ label: t('validate.search'), placeholder: t('validate.searchPlaceholder'), testId: 'validate-search', fetching: list.isFetching }}
          actions={validateButton}
          minWidth={880}
          pagination={{ label: t('validate.pagination') }}
        />
      </Paper>
      <Modal opened={confirming} onClose={closeConfirm} title={t('validate.confirmTitle')} {...overlayProps()} data-testid="validate-confirm">
        <Stack gap="md">
          <Text size="sm">{t('validate.confirmText', { count: checked.size })}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={closeConfirm}>
              {t('validate.cancel')}
            </Button>
            <Button onClick={() => validate.mutate()} loading={validate.isPending} data-testid="validate-confirm-button" data-autofocus>
              {t('validate.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
