import { useCallback, useMemo, useState } from 'react';
import { Alert, Badge, Button, Collapse, Group, List, Modal, Paper, SegmentedControl, Select, Stack, Tabs, Text, TextInput, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconAdjustmentsHorizontal, IconAlertTriangle, IconFilePlus, IconMailForward, IconPlus, IconSend } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PATENT_SORTS, type PatentRecordDto, type RefusedInstructionRow } from '@portal/contracts';
import { overlayProps } from '../../app/theme.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { LiveNotice } from '../../components/LiveNotice.tsx';
import { ServerList } from '../../components/list/ServerList.tsx';
import { useServerList } from '../../components/list/useServerList.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ApiError } from '../../lib/api.ts';
import { isAdmin, LOGGED_OUT } from '../../lib/access.ts';
import { sessionQuery } from '../../lib/auth.ts';
import { msg } from '../../lib/message.tsx';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { instructionsQuery, NO_FILTERS, patentListQuery, sendInstructions, type PatentFilters, type PatentTab } from './api.ts';
import { usePatentsLive } from './live.ts';
import { patentCount, usePageCursor } from './paging.ts';
import {
  choose,
  CODE_SEARCH_DEBOUNCE_MS,
  DEFAULT_PATENT_PAGE_SIZE,
  DEFAULT_SORT,
  EMPTY_SELECTION,
  formatDay,
  instructionLabels,
  PATENT_PAGE_SIZES,
  PATENT_POLL_MS,
  withoutRows,
  type PatentPageSize,
  type Selection,
} from './model.ts';
import { activeFilters, FilterPanel } from './components/FilterPanel.tsx';
import { NewCaseModal } from './components/NewCaseModal.tsx';
import { PatentDetailModal } from './components/PatentDetailModal.tsx';
import { PortfolioCard, portfolioCardProps, portfolioRowProps, usePortfolioColumns } from './components/PortfolioTable.tsx';
import classes from './patents.module.css';

const PHONE_QUERY = '(max-width: 40em)';
const CARDS_QUERY = '(max-width: 75em)';
/** The sorts offered above the cards (the table's sortable columns). */
const CARD_SORTS = ['DateEcheance', 'ReferenceClient', 'noDepot', 'Pays', 'Quantieme', 'cost'] as const;
const SORT_LABEL: Record<(typeof CARD_SORTS)[number], string> = { DateEcheance: 'dueDate', ReferenceClient: 'reference', noDepot: 'numbers', Pays: 'office', Quantieme: 'quantieme', cost: 'cost' };

function RefusedRows({ rows, onClose }: { rows: RefusedInstructionRow[]; onClose: () => void }) {
  const { t } = useTranslation('patents');
  return (
    <Alert color="red" variant="light" role="alert" title={t('update.refusedTitle')} icon={<IconAlertTriangle size={18} aria-hidden="true" />} withCloseButton onClose={onClose} closeButtonLabel={t('detail.close')} data-testid="refused-rows">
      <Stack gap="xs">
        <Text size="sm">{t('update.refusedText')}</Text>
        <List size="sm" spacing={4}>
          {rows.map((r) => (
            <List.Item key={r.idagenda} data-testid="refused-row" data-idagenda={r.idagenda}>
              <Text span fw={600} size="sm">
                {[r.ReferenceClient, r.noDepot, r.Pays, formatDay(r.DateEcheance)].filter(Boolean).join(' · ')}
              </Text>
              {' — '}
              {r.reason}
            </List.Item>
          ))}
        </List>
      </Stack>
    </Alert>
  );
}

function ColourLegend() {
  const { t } = useTranslation('patents');
  const items = [
    ['treated', t('tone.treated')],
    ['grace', t('tone.grace')],
    ['pastLimit', t('tone.pastLimit')],
    ['selected', t('choice.being')],
  ] as const;
  return (
    <Group gap="md" wrap="wrap" aria-label={t('annuities.legend')} role="group">
      {items.map(([tone, label]) => (
        <Group key={tone} gap={6} wrap="nowrap">
          <span className={classes.swatch} data-tone={tone} aria-hidden="true" />
          <Text size="xs" c="dark.5">
            {label}
          </Text>
        </Group>
      ))}
    </Group>
  );
}

/** Spec "Patent annuities": two server-side tabs, filters, the per-row instruction choice and its confirmation. */
export function PatentAnnuitiesPage() {
  const { t, i18n } = useTranslation('patents');
  const queryClient = useQueryClient();
  const session = useQuery(sessionQuery).data ?? { ...LOGGED_OUT, user: null };
  const searchesCodes = isAdmin(session) || session.roles.includes('admin_test');
  const phone = useMediaQuery(PHONE_QUERY);
  // Below the frame's full width (1200 px) the eight-column table would scroll sideways and hide the cost: one card per patent instead.
  const cards = useMediaQuery(CARDS_QUERY);
  const live = usePatentsLive();

  const [tab, setTab] = useState<PatentTab>('unprocessed');
  const [filters, setFilters] = useState<PatentFilters>(NO_FILTERS);
  const [filtersOpen, { toggle: toggleFilters }] = useDisclosure(false);
  // The client-code search is the list's search; the page size, the page and the sort are the list's too.
  const listState = useServerList({ defaultSort: { id: DEFAULT_SORT, desc: false }, sorts: PATENT_SORTS, debounceMs: CODE_SEARCH_DEBOUNCE_MS, defaultLimit: DEFAULT_PATENT_PAGE_SIZE });
  const { sort, order, setSorting, firstPage } = listState;
  const debouncedCode = listState.debounced.trim();
  const [selection, setSelection] = useState<Selection>(EMPTY_SELECTION);
  const [detail, setDetail] = useState<PatentRecordDto | null>(null);
  const [newCase, { open: openNewCase, close: closeNewCase }] = useDisclosure(false);
  const [confirming, { open: openConfirm, close: closeConfirm }] = useDisclosure(false);
  const [refused, setRefused] = useState<RefusedInstructionRow[]>([]);

  const instructions = useQuery(instructionsQuery);
  const labels = useMemo(() => instructionLabels(instructions.data ?? [], i18n.language), [instructions.data, i18n.language]);
  const listParams = { tab, ...filters, code: searchesCodes ? debouncedCode : '', sort, order, limit: listState.limit as PatentPageSize };
  const pager = usePageCursor(JSON.stringify(listParams), listState.setPage);
  const list = useQuery({
    ...patentListQuery({ ...listParams, page: listState.page, cursor: pager.cursorFor(listState.page) }),
    refetchInterval: live.interrupted ? PATENT_POLL_MS : false,
  });

  const onChoose = useCallback((row: PatentRecordDto, instruction: number | null) => setSelection((s) => choose(s, row, instruction)), []);
  const onDetails = useCallback((row: PatentRecordDto) => setDetail(row), []);
  const rowActions = { labels, selection, onChoose, onDetails };
  const columns = usePortfolioColumns(rowActions);

  const update = useMutation({
    mutationFn: () => sendInstructions(selection),
    onSuccess: async () => {
      closeConfirm();
      notifySuccess(msg('patents:update.successTitle'), msg('patents:update.success'));
      setSelection(EMPTY_SELECTION);
      setRefused([]);
      setTab('unprocessed');
      firstPage();
      await queryClient.invalidateQueries({ queryKey: queryKeys.patents.all() });
    },
    onError: async (error) => {
      closeConfirm();
      if (error instanceof ApiError && error.notUpdated.length > 0) {
        setRefused(error.notUpdated);
        setSelection((s) => withoutRows(s, error.notUpdated.map((r) => r.idagenda)));
        await queryClient.invalidateQueries({ queryKey: queryKeys.patents.lists() });
        return;
      }
      notifyError(msg('patents:update.errorTitle'), error instanceof ApiError && error.message ? error.message : msg('patents:update.error'));
    },
  });

  const applyFilters = (next: PatentFilters) => {
    setFilters(next);
    firstPage();
  };
  const rows = list.data?.brevet_eptane ?? [];
  const meta = list.data?.meta;
  const filtered = activeFilters(filters) > 0 || debouncedCode !== '';
  const chosen = [...selection.values()];
  const titleOf = (id: number) => labels.find((l) => l.id === id)?.title ?? String(id);

  const empty = (
    <Stack align="center" gap="xs" py="xl" data-testid="patents-empty">
      <ThemeIcon size={48} radius="xl" variant="light" color="gray">
        <IconFilePlus size={26} aria-hidden="true" />
      </ThemeIcon>
      <Text fw={600}>{filtered ? t('annuities.noMatch') : t('annuities.empty')}</Text>
    </Stack>
  );

  const updateButton = (
    <Button
      leftSection={<IconSend size={16} aria-hidden="true" />}
      rightSection={
        <Badge size="sm" color="white" c="brand.9" variant="filled" circle={selection.size < 10} data-testid="update-count">
          {selection.size}
        </Badge>
      }
      disabled={selection.size === 0}
      onClick={openConfirm}
      aria-describedby="patent-selected-count"
      data-testid="update-instructions"
      fullWidth={phone}
    >
      {t('update.button')}
    </Button>
  );

  return (
    <Stack gap="md" maw={1400} mx="auto" w="100%">
      <PageHeader
        title={t('annuities.title')}
        description={t('annuities.description')}
        actions={
          <Button component={Link} to="/add/patents" variant="light" leftSection={<IconPlus size={16} aria-hidden="true" />} data-testid="add-patent-link">
            {t('annuities.addPatent')}
          </Button>
        }
      />
      <Alert color="brand" variant="light" icon={<IconMailForward size={18} aria-hidden="true" />} data-testid="new-case-banner">
        <Group justify="space-between" gap="sm" wrap="wrap">
          <Stack gap={0}>
            <Text fw={600} size="sm">
              {t('newCase.banner')}
            </Text>
            <Text size="sm">{t('newCase.bannerText')}</Text>
          </Stack>
          <Button size="compact-md" variant="white" onClick={openNewCase} data-testid="new-case-open">
            {t('newCase.open')}
          </Button>
        </Group>
      </Alert>
      <LiveNotice show={live.interrupted} pollMs={PATENT_POLL_MS} />
      {refused.length > 0 && <RefusedRows rows={refused} onClose={() => setRefused([])} />}
      <Paper withBorder shadow="xs" p="md">
        <ServerList
          query={list}
          state={{ ...listState, setPage: (page: number) => pager.goTo(page, list.data?.meta) }}
          rows={rows}
          totalPages={meta?.totalPages}
          columns={columns}
          card={(row) => <PortfolioCard row={row} {...rowActions} />}
          rowProps={(row) => portfolioRowProps(row, selection)}
          cardProps={(row) => portfolioCardProps(row, selection)}
          getRowId={(row) => row._id}
          testId="patents-table"
          rowTestId="patent-row"
          empty={empty}
          error={<LoadError message={t('annuities.loadError')} retryLabel={t('annuities.retry')} onRetry={() => void list.refetch().catch(() => undefined)} testId="patents-load-error" />}
          minWidth={940}
          cardsQuery={CARDS_QUERY}
          cardsGrid
          pagination={{ label: t('annuities.pagination') }}
          footer={
            <Select
              label={t('annuities.pageSize')}
              data={PATENT_PAGE_SIZES.map((n) => ({ value: String(n), label: String(n) }))}
              value={String(listState.limit)}
              onChange={(v) => {
                const n = Number(v);
                if ((PATENT_PAGE_SIZES as readonly number[]).includes(n)) listState.setLimit(n);
              }}
              allowDeselect={false}
              w={180}
              data-testid="patents-page-size"
            />
          }
          toolbar={
            <>
              <Group justify="space-between" gap="sm" wrap="wrap" align="flex-end">
                {searchesCodes && (
                  <TextInput
                    label={t('annuities.code.label')}
                    description={t('annuities.code.hint')}
                    placeholder={t('annuities.code.placeholder')}
                    value={listState.search}
                    onChange={(e) => listState.setSearch(e.currentTarget.value)}
                    w={{ base: '100%', sm: 360 }}
                    data-testid="client-code-search"
                    autoComplete="off"
                  />
                )}
                <Button
                  variant="default"
                  leftSection={<IconAdjustmentsHorizontal size={16} aria-hidden="true" />}
                  onClick={toggleFilters}
                  aria-expanded={filtersOpen}
                  aria-controls="patent-filter-panel"
                  data-testid="filters-toggle"
                >
                  {filtersOpen ? t('filters.hide') : t('filters.show')}
                  {activeFilters(filters) > 0 && (
                    <>
                      <Badge ml={8} size="sm" variant="light" c="brand.9" circle aria-hidden="true">
                        {activeFilters(filters)}
                      </Badge>
                      <VisuallyHidden>{t('filters.active', { count: activeFilters(filters) })}</VisuallyHidden>
                    </>
                  )}
                </Button>
              </Group>
              <Collapse expanded={filtersOpen} id="patent-filter-panel">
                <FilterPanel applied={filters} labels={labels} onApply={applyFilters} />
              </Collapse>
              <Tabs
                value={tab}
                onChange={(v) => {
                  if (v === 'unprocessed' || v === 'unvalidated') {
                    setTab(v);
                    firstPage();
                  }
                }}
              >
                <Tabs.List aria-label={t('annuities.tabsLabel')} grow={!!phone}>
                  <Tabs.Tab value="unprocessed" data-testid="tab-unprocessed">
                    {t('annuities.tabs.unprocessed')}
                  </Tabs.Tab>
                  <Tabs.Tab value="unvalidated" data-testid="tab-unvalidated">
                    {t('annuities.tabs.unvalidated')}
                  </Tabs.Tab>
                </Tabs.List>
              </Tabs>
              <Group justify="space-between" gap="sm" wrap="wrap">
                <Stack gap={4}>
                  <Text size="sm" c="dark.5" aria-live="polite" data-testid="patents-count">
                    {meta ? patentCount(t, meta) : ''}
                  </Text>
                  <ColourLegend />
                </Stack>
                <Group justify="flex-end" gap="sm" wrap="wrap" className={classes.updateBar} w={phone ? '100%' : undefined}>
                  <Text id="patent-selected-count" size="sm" c="dark.5" aria-live="polite" data-testid="selected-count">
                    {t('update.selected', { count: selection.size })}
                  </Text>
                  {selection.size > 0 && (
                    <Button variant="subtle" onClick={() => setSelection(EMPTY_SELECTION)} data-testid="clear-selection">
                      {t('update.clear')}
                    </Button>
                  )}
                  {updateButton}
                </Group>
              </Group>
              {cards && (
                <Group gap="sm" wrap="wrap" align="flex-end" data-testid="patents-sort">
                  <Select
                    label={t('annuities.sortBy')}
                    data={CARD_SORTS.map((id) => ({ value: id, label: t(`columns.${SORT_LABEL[id]}`) }))}
                    value={sort}
                    onChange={(v) => {
                      if (v) setSorting([{ id: v, desc: order === 'desc' }]);
                    }}
                    allowDeselect={false}
                    w={{ base: '100%', xs: 240 }}
                  />
                  <SegmentedControl
                    aria-label={t('annuities.order.label')}
                    data={[
                      { value: 'asc', label: t('annuities.order.asc') },
                      { value: 'desc', label: t('annuities.order.desc') },
                    ]}
                    value={order}
                    onChange={(v) => setSorting([{ id: sort, desc: v === 'desc' }])}
                  />
                </Group>
              )}
            </>
          }
        />
      </Paper>
      <Modal opened={confirming} onClose={closeConfirm} title={t('update.confirmTitle')} size="lg" fullScreen={!!phone} {...overlayProps()} data-testid="update-confirm">
        <Stack gap="md">
          <Text size="sm">{t('update.confirmText', { count: chosen.length })}</Text>
          <List size="sm" spacing={4} data-testid="update-confirm-list">
            {chosen.map((c) => (
              <List.Item key={c.idagenda}>
                <Text span fw={600} size="sm">
                  {[c.ReferenceClient, c.noDepot, c.Pays].filter(Boolean).join(' · ')}
                </Text>
                {' — '}
                {titleOf(c.instructionBeingUpdated)}
              </List.Item>
            ))}
          </List>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={closeConfirm}>
              {t('update.cancel')}
            </Button>
            <Button onClick={() => update.mutate()} loading={update.isPending} data-testid="update-confirm-send" data-autofocus>
              {t('update.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <PatentDetailModal patent={detail} labels={labels} onClose={() => setDetail(null)} />
      <NewCaseModal opened={newCase} onClose={closeNewCase} />
    </Stack>
  );
}
