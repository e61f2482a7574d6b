import { useCallback, useEffect, useMemo, useState } from 'react';
import { Button, Group, Modal, Pagination, Select, Stack, Text, Textarea } from '@mantine/core';
import { useDebouncedValue, useMediaQuery, useThrottledValue } from '@mantine/hooks';
import { IconX } from '@tabler/icons-react';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLastNonNull } from '../../lib/useLastNonNull.ts';
import { ANNUITY_ALL_PAGE_SIZE, PAYMENT_UNKNOWN_DUE_SOON_DAYS, type AnnuityColour, type AnnuityFileDto, type AnnuityPatentDto } from '@portal/contracts';
import { Loader } from '../../components/Loader.tsx';
import { SearchInput } from '../../components/SearchInput.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { msg } from '../../lib/message.tsx';
import { queryKeys } from '../../lib/queryKeys.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { COLOUR_STYLE } from './ColourBadge.tsx';
import { EditPatentModal } from './EditPatentModal.tsx';
import { applyBulkComment, cachedWindowIds, commentFilePatents, commentPatents, patentPageQuery, patentWindowQuery } from './patentsApi.ts';
import {
  COLOURS,
  DEFAULT_PATENT_PAGE_SIZE,
  filterSelection,
  formatDay,
  nextSort,
  PAGE_SIBLINGS,
  PAGINATION_DEBOUNCE_MS,
  PATENT_PAGE_SIZES,
  RANGE_THROTTLE_MS,
  SEARCH_DEBOUNCE_MS,
  SORT_KEYS,
  sparseRow,
  toggleAllShown,
  toggleColour,
  toggleExcept,
  windowsFor,
  type PatentPageSize,
  type PatentSort,
  type SortableColumn,
  type SparseWindows,
} from './patentsModel.ts';
import { PatentsTable } from './PatentsTable.tsx';
import classes from './patents.module.css';

/** Copies a value; 'Text copied!' for 2 s. A refused clipboard is only logged (spec §8). */
async function copyText(value: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(value);
    notifySuccess(msg('annuities:patents.copied'));
  } catch (error) {
    console.warn('clipboard write refused', error);
  }
}

function PatentsBody({ file, onEdit }: { file: AnnuityFileDto; onEdit: (patent: AnnuityPatentDto) => void }) {
  const { t } = useTranslation('annuities');
  const client = useQueryClient();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [limit, setLimit] = useState<PatentPageSize>(DEFAULT_PATENT_PAGE_SIZE);
  const [sort, setSort] = useState<PatentSort | null>(null);
  const [colour, setColour] = useState<AnnuityColour | null>(null);
  const [page, setPage] = useState(1);
  const [debouncedPage] = useDebouncedValue(page, PAGINATION_DEBOUNCE_MS);
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const [comment, setComment] = useState('');
  // A new search, page size, order or filter starts again at page 1.
  useEffect(() => setPage(1), [debouncedSearch, limit, sort, colour]);
  const effectivePage = page === 1 ? 1 : debouncedPage;

  const all = limit === 'all';
  const sortKey = sort ? SORT_KEYS[sort.column] : null;
  const order = sort?.order ?? 'asc';
  const params = useMemo(() => ({ search: debouncedSearch, sort: sortKey, order, colour }), [debouncedSearch, sortKey, order, colour]);
  // A page of 30, 50 or 100; or, for "All", the windows covering the rows in view, fetched by number (decision 178).
  const paged = useQuery({ ...patentPageQuery(file._id, { ...params, page: effectivePage, limit }), enabled: !all });
  // "All": window 1 says the total; the table then holds that many rows and asks for the windows of the ones in view.
  const head = useQuery({ ...patentWindowQuery(file._id, params, 1), enabled: all });
  const [range, setRange] = useState<readonly [number, number]>([0, 0]);
  const resetKey = JSON.stringify(params);
  useEffect(() => setRange([0, 0]), [resetKey]);
  const onRange = useCallback((first: number, last: number) => setRange((r) => (r[0] === first && r[1] === last ? r : [first, last])), []);
  const pageSize = head.data?.meta.pageSize ?? ANNUITY_ALL_PAGE_SIZE;
  // The windows to fetch follow the rows in view at most every RANGE_THROTTLE_MS (and where they stop): a drag of
  // the scrollbar across the file passes thousands of rows a frame, and asked for every window it passed. The
  // windows of the rows in view are read from the cache meanwhile, without a fetch.
  const fetchRange = useThrottledValue(range, RANGE_THROTTLE_MS);
  const fileTotal = all && head.data ? head.data.meta.total : 0;
  const fetched = all && head.data ? windowsFor(fetchRange[0], fetchRange[1], pageSize, fileTotal).filter((n) => n !== 1) : [];
  const inView = all && head.data ? windowsFor(range[0], range[1], pageSize, fileTotal, 0).filter((n) => n !== 1 && !fetched.includes(n)) : [];
  const needed = [...fetched, ...inView];
  const windowResults = useQueries({
    queries: needed.map((n, i) => ({ ...patentWindowQuery(file._id, params, n), enabled: i < fetched.length })),
  });
  // useQueries answers a new array each render: the rows change when a window's data does (fetched or patched).
  const windowsSignature = `${needed.join()}|${windowResults.map((r) => r.dataUpdatedAt).join()}`;
  const windowRows: SparseWindows = useMemo(() => {
    const m = new Map<number, readonly AnnuityPatentDto[]>();
    if (head.data) m.set(1, head.data.patents);
    needed.forEach((n, i) => {
      const rows = windowResults[i]?.data?.patents;
      if (rows) m.set(n, rows);
    });
    return m;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [head.data, windowsSignature]);
  const query = all ? head : paged;
  const data = all ? head.data : paged.data;
  const meta = data?.meta;
  const counts = data?.file.counts ?? file.counts;
  const total = meta?.total ?? 0;
  const pagePatents = paged.data?.patents;
  const rowAt = useCallback(
    (i: number) => (all ? sparseRow(windowRows, pageSize, i) : pagePatents?.[i]),
    [all, windowRows, pageSize, pagePatents],
  );
  const count = all ? total : (pagePatents?.length ?? 0);
  const shownIds = useMemo(
    () => (all ? [...windowRows.values()].flatMap((rows) => rows.map((p) => p._id)) : (pagePatents ?? []).map((p) => p._id)),
    [all, windowRows, pagePatents],
  );
  const windowError = windowResults.some((r) => r.isError);
  const windowsFetching = windowResults.some((r) => r.isFetching);

  // "All": the header checkbox selects every row of the search and filter, loaded or not, but those unticked after.
  const [allExcept, setAllExcept] = useState<ReadonlySet<string> | null>(null);
  useEffect(() => setAllExcept(null), [debouncedSearch, limit, colour]);
  const selection = useMemo(() => (allExcept ? filterSelection(allExcept, total) : selected), [allExcept, total, selected]);

  const onToggle = useCallback(
    (id: string) => {
      if (allExcept) {
        setAllExcept((s) => (s ? toggleExcept(s, id) : s));
        return;
      }
      setSelected((s) => {
        const next = new Set(s);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      });
    },
    [allExcept],
  );
  const onToggleReasons = useCallback((id: string) => {
    setExpanded((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  const onCopy = useCallback((value: string) => {
    copyText(value).catch(() => undefined);
  }, []);
  const onToggleAll = useCallback(() => {
    if (!all) {
      setSelected((s) => toggleAllShown(shownIds, s));
      return;
    }
    setSelected(new Set());
    setAllExcept((s) => (s && s.size === 0 ? null : new Set()));
  }, [all, shownIds]);
  const clearSelection = useCallback(() => {
    setSelected(new Set());
    setAllExcept(null);
  }, []);
  const onSort = useCallback((column: SortableColumn) => setSort((s) => nextSort(s, column)), []);

  const bulk = useMutation({
    mutationFn: async ({ text }: { text: string }) => {
      if (allExcept) {
        const updated = await commentFilePatents(file._id, { search: debouncedSearch, colour, except: [...allExcept] }, text);
        // The loaded rows get the comment in place; the file's other lists are read again when shown.
        const loaded = cachedWindowIds(client, file._id, params);
        await applyBulkComment(client, file._id, new Set(loaded.filter((id) => !allExcept.has(id))), text);
        await client.invalidateQueries({ queryKey: queryKeys.annuities.patents(file._id), refetchType: 'none' });
        return updated;
      }
      const ids = [...selected];
      const updated = await commentPatents(ids, text);
      await applyBulkComment(client, file._id, new Set(ids), text);
      return updated;
    },
    onSuccess: (updated) => {
      notifySuccess(msg('annuities:patents.bulk.applied', { count: updated }));
      clearSelection();
      setComment('');
    },
    onError: () => notifyError(msg('annuities:patents.bulk.failed')),
  });

  const fetching = query.isFetching && !query.isPending;
  const caption = t('patents.total', { count: total });

  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" c="dimmed" data-testid="patents-checked-on">
          {file.reference_date ? t('patents.checkedOn', { date: formatDay(file.reference_date) }) : null}
        </Text>
        <Text size="sm" fw={600} aria-live="polite" data-testid="patents-total">
          {caption}
        </Text>
      </Group>
      {data?.file.export_stale && (
        <Text size="xs" c="dimmed" data-testid="patents-export-stale">
          {t('patents.exportStale')}
        </Text>
      )}
      <Group justify="space-between" gap="sm" wrap="wrap" align="flex-end">
        <SearchInput
          label={t('patents.searchLabel')}
          placeholder={t('patents.search')}
          fetching={fetching}
          value={search}
          onValue={setSearch}
          w={{ base: '100%', sm: 380 }}
          data-autofocus
          data-testid="patents-search"
        />
        <Select
          label={t('patents.pageSize')}
          data={PATENT_PAGE_SIZES.map((n) => ({ value: String(n), label: n === 'all' ? t('patents.all') : t('patents.perPage', { count: n }) }))}
          value={String(limit)}
          onChange={(v) => v && setLimit(v === 'all' ? 'all' : (Number(v) as PatentPageSize))}
          allowDeselect={false}
          w={{ base: '100%', xs: 170 }}
          data-testid="patents-page-size"
        />
      </Group>
      <div role="group" aria-label={t('patents.filters')}>
        <Group gap={6} wrap="wrap">
          {COLOURS.map((c) => {
            const { color, icon: Icon } = COLOUR_STYLE[c];
            const active = colour === c;
            return (
              <Button
                key={c}
                size="compact-sm"
                variant={active ? 'filled' : 'default'}
                color={color}
                className={classes.filter}
                aria-pressed={active}
                leftSection={<Icon size={14} aria-hidden="true" />}
                rightSection={active ? <IconX size={12} aria-hidden="true" /> : null}
                onClick={() => setColour((cur) => toggleColour(cur, c))}
                title={t(`colour.help.${c}`, { count: PAYMENT_UNKNOWN_DUE_SOON_DAYS })}
                data-testid={`filter-${c}`}
              >
                {t('patents.filter', { label: t(`colour.${c}`), count: counts?.[c] ?? 0 })}
              </Button>
            );
          })}
        </Group>
        <Text size="xs" c="dark.5" mt={4} data-testid="colour-legend">
          {t('colour.legend', { count: PAYMENT_UNKNOWN_DUE_SOON_DAYS })}
        </Text>
      </div>
      {query.isPending ? (
        <Loader loading />
      ) : query.isError ? (
        <LoadError message={t('patents.loadError')} retryLabel={t('patents.retry')} onRetry={() => void query.refetch().catch(() => undefined)} testId="patents-error" />
      ) : count === 0 ? (
        <Text ta="center" c="dimmed" py="xl" data-testid="patents-empty">
          {debouncedSearch ? t('patents.noMatch', { search: debouncedSearch }) : colour ? t('patents.emptyFilter') : t('patents.empty')}
        </Text>
      ) : (
        <PatentsTable
          count={count}
          rowAt={rowAt}
          ids={shownIds}
          sort={sort}
          onSort={onSort}
          selected={selection}
          expanded={expanded}
          onToggle={onToggle}
          onToggleAll={onToggleAll}
          onToggleReasons={onToggleReasons}
          onEdit={onEdit}
          onCopy={onCopy}
          offset={meta && !all ? (meta.currentPage - 1) * limit : 0}
          total={meta?.total ?? count}
          caption={caption}
          selectAllLabel={all ? t('patents.selectAllMatching', { count: total }) : undefined}
          onRange={all ? onRange : undefined}
          resetKey={all ? resetKey : undefined}
        />
      )}
      {all && windowError && !windowsFetching && (
        <LoadError
          message={t('patents.loadError')}
          retryLabel={t('patents.retry')}
          onRetry={() => windowResults.forEach((r) => r.isError && void r.refetch().catch(() => undefined))}
          testId="patents-window-error"
        />
      )}
      {limit !== 'all' && meta && meta.totalPages > 1 && (
        <Group justify="center">
          <Pagination
            total={meta.totalPages}
            value={page}
            onChange={setPage}
            siblings={PAGE_SIBLINGS}
            getControlProps={(control) => ({ 'aria-label': t(`pageControl.${control}`) })}
            boundaries={1}
            size="sm"
            aria-label={t('patents.pagination')}
            data-testid="patents-pagination"
          />
        </Group>
      )}
      <div className={classes.bulk}>
        <Stack gap={6}>
          <Textarea
            label={t('patents.bulk.label')}
            description={selection.size === 0 ? t('patents.bulk.hint') : undefined}
            placeholder={t('patents.bulk.placeholder')}
            value={comment}
            onChange={(e) => setComment(e.currentTarget.value)}
            autosize
            minRows={1}
            maxRows={4}
            maxLength={2000}
            data-testid="bulk-comment"
          />
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Group gap="xs">
              <Text size="sm" aria-live="polite" data-testid="patents-selected">
                {t('patents.selected', { count: selection.size })}
              </Text>
              {selection.size > 0 && (
                <Button size="compact-sm" variant="subtle" onClick={clearSelection} data-testid="clear-selection">
                  {t('patents.clearSelection')}
                </Button>
              )}
            </Group>
            <Button
              size="sm"
              onClick={() => bulk.mutate({ text: comment.trim() })}
              disabled={selection.size === 0}
              loading={bulk.isPending}
              data-testid="bulk-apply"
            >
              {t('patents.bulk.apply', { count: selection.size })}
            </Button>
          </Group>
        </Stack>
      </div>
    </Stack>
  );
}

/**
 * The patents-by-file modal (spec "Patents-by-file modal"): opened by the file list for a Done file
 * and by the research screen; `file` null means closed. The edit patent modal is its sibling, not
 * its child, and Escape closes only the top one (Mantine closes every open modal on Escape).
 */
export default function PatentsModal({ file: opened, onClose }: { file: AnnuityFileDto | null; onClose: () => void }) {
  const { t } = useTranslation('annuities');
  const phone = useMediaQuery('(max-width: 40em)');
  const [editing, setEditing] = useState<AnnuityPatentDto | null>(null);
  // While closing, the modal still shows the file it had.
  const file = useLastNonNull(opened);
  const title = file ? (file.title ?? file.name_file_import) : '';
  return (
    <>
      <Modal
        opened={opened !== null}
        onClose={() => {
          setEditing(null);
          onClose();
        }}
        closeOnEscape={editing === null}
        title={title}
        size="calc(100vw - 2rem)"
        fullScreen={phone}
        radius={phone ? 0 : 'lg'}
        styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)', overflowWrap: 'anywhere' } }}
        closeButtonProps={{ 'aria-label': t('patents.close') }}
        data-testid="patents-modal"
      >
        {file && <PatentsBody key={file._id} file={file} onEdit={setEditing} />}
      </Modal>
      <EditPatentModal patent={editing} fileName={title} onClose={() => setEditing(null)} />
    </>
  );
}
