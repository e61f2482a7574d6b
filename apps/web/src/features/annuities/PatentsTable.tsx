import { createContext, useContext, useEffect, useMemo, useRef } from 'react';
import { ActionIcon, Badge, Checkbox, Group, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort, IconExternalLink, IconPencil } from '@tabler/icons-react';
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import type { AnnuityPatentDto, AnnuityPatentLedger } from '@portal/contracts';
import { ColourBadge } from './ColourBadge.tsx';
import {
  formatDay,
  patentLabel,
  SORT_KEYS,
  statusReasons,
  VIRTUALIZE_ABOVE,
  selectionState,
  type PatentSort,
  type SelectionView,
  type SortableColumn,
} from './patentsModel.ts';
import classes from './patents.module.css';
import tableClasses from '../../components/SortableTable.module.css';
import { PHONE_QUERY } from '../../components/list/ServerList.tsx';

/** What the cells need besides their row: kept in a context so the column definitions stay stable. */
interface RowState {
  selected: SelectionView;
  expanded: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onToggleReasons: (id: string) => void;
  onEdit: (patent: AnnuityPatentDto) => void;
  onCopy: (value: string) => void;
}
const RowStateContext = createContext<RowState | null>(null);
function useRowState(): RowState {
  const state = useContext(RowStateContext);
  if (!state) throw new Error('PatentsTable cells outside their table');
  return state;
}

const col = createColumnHelper<AnnuityPatentDto>();
const isSortable = (id: string): id is SortableColumn => id in SORT_KEYS;
/** Estimated height of a row before it is measured (one line of text, the badge, paddings). */
const ROW_ESTIMATE = 45;
/** The same for a phone's card (the header line and about ten fields). */
const CARD_ESTIMATE = 330;

function SelectCell({ patent }: { patent: AnnuityPatentDto }) {
  const { t } = useTranslation('annuities');
  const { selected, onToggle } = useRowState();
  return (
    <Checkbox
      size="xs"
      checked={selected.has(patent._id)}
      onChange={() => onToggle(patent._id)}
      aria-label={t('patents.selectRow', { name: patentLabel(patent) })}
      data-testid="patent-select"
    />
  );
}

/** The ledger's evidence under the badge (decision 214): the year, the day paid and the receipt, or the register's word. */
function LedgerLine({ ledger }: { ledger: AnnuityPatentLedger }) {
  const { t } = useTranslation('annuities');
  const date = ledger.paid_on ? formatDay(ledger.paid_on).replaceAll('-', '\u2011') : null;
  const parts = [
    ledger.state === 'lapsed'
      ? t('patents.ledger.lapsed', { year: ledger.year })
      : date
        ? t(`patents.ledger.${ledger.state}On`, { year: ledger.year, date })
        : t(`patents.ledger.${ledger.state}`, { year: ledger.year }),
  ];
  if (ledger.receipt_file) parts.push(t('patents.ledger.receipt', { file: ledger.receipt_file }));
  return (
    <Text size="xs" c="dark.6" mt={4} className="portal-break" data-testid="patent-ledger" data-state={ledger.state}>
      {parts.join(' · ')}
    </Text>
  );
}

function StatusCell({ patent }: { patent: AnnuityPatentDto }) {
  const { t } = useTranslation('annuities');
  const { expanded, onToggleReasons } = useRowState();
  const reasons = statusReasons(patent).map((r) =>
    t(r.key, {
      ...r.values,
      // A date in a sentence keeps its line (non-breaking hyphens): "02-" then "10-2023" in a narrow cell.
      ...(typeof r.values?.date === 'string' ? { date: r.values.date.replaceAll('-', '\u2011') } : {}),
      ...(r.defaultValue === undefined ? {} : { defaultValue: r.defaultValue }),
    }),
  );
  const open = expanded.has(patent._id);
  const listId = `reasons-${patent._id}`;
  return (
    <div>
      <Group gap={4} wrap="nowrap">
        <ColourBadge colour={patent.colour} ledger={patent.ledger?.state} />
        {reasons.length > 0 && (
          <UnstyledButton
            className={classes.copy}
            style={{ fontFamily: 'inherit' }}
            aria-expanded={open}
            aria-controls={open ? listId : undefined}
            // The visible words first in the name (WCAG 2.5.3), then whose reasons they are.
            aria-label={`${t('patents.reasons')} (${reasons.length}) ${t('patents.reasonsFor', { name: patentLabel(patent) })}`}
            onClick={() => onToggleReasons(patent._id)}
            data-testid="patent-reasons-toggle"
          >
            {t('patents.reasons')} ({reasons.length})
          </UnstyledButton>
        )}
      </Group>
      {patent.ledger && <LedgerLine ledger={patent.ledger} />}
      {open && (
        <ul id={listId} className={classes.reasons} data-testid="patent-reasons">
          {reasons.map((r, i) => (
            <li key={i}>{r}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

function CopyCell({ value, field, testId }: { value: string | null; field: 'num_publication' | 'num_depot' | 'reference'; testId: string }) {
  const { t } = useTranslation('annuities');
  const { onCopy } = useRowState();
  if (!value) return null;
  return (
    <UnstyledButton className={classes.copy} onClick={() => onCopy(value)} aria-label={t(`patents.copy.${field}`, { value })} data-testid={testId}>
      {value}
    </UnstyledButton>
  );
}

function PublicationCell({ patent }: { patent: AnnuityPatentDto }) {
  const { t } = useTranslation('annuities');
  return (
    <Group gap={4} wrap="nowrap">
      <CopyCell value={patent.num_publication} field="num_publication" testId="copy-publication" />
      {patent.url && (
        <ActionIcon
          component="a"
          href={patent.url}
          target="_blank"
          rel="noopener noreferrer"
          variant="subtle"
          size="sm"
          aria-label={t('patents.openRegister', { name: patentLabel(patent) })}
          data-testid="patent-link"
        >
          <IconExternalLink size={15} aria-hidden="true" />
        </ActionIcon>
      )}
    </Group>
  );
}

function EditCell({ patent }: { patent: AnnuityPatentDto }) {
  const { t } = useTranslation('annuities');
  const { onEdit } = useRowState();
  return (
    <ActionIcon variant="light" size="md" onClick={() => onEdit(patent)} aria-label={t('patents.edit', { name: patentLabel(patent) })} data-testid="patent-edit">
      <IconPencil size={16} aria-hidden="true" />
    </ActionIcon>
  );
}

function Day({ iso }: { iso: string | null }) {
  return <span className={classes.nowrap}>{formatDay(iso)}</span>;
}

function HeaderCheckbox() {
  const { t } = useTranslation('annuities');
  const { selected } = useRowState();
  const { onToggleAll, ids, label } = useContext(ToggleAllContext)!;
  const state = selectionState(ids, selected);
  return (
    <Checkbox
      size="xs"
      checked={state === 'all'}
      indeterminate={state === 'some'}
      disabled={ids.length === 0}
      onChange={onToggleAll}
      aria-label={label ?? t('patents.selectAllShown')}
      data-testid="patent-select-all"
    />
  );
}
const ToggleAllContext = createContext<{ onToggleAll: () => void; ids: readonly string[]; label: string | undefined } | null>(null);

/** On a phone, one card per patent: every column of the table (at 360 px the table showed the status only). */
function PatentCard({ patent: p }: { patent: AnnuityPatentDto }) {
  const { t } = useTranslation('annuities');
  const field = (key: string, value: React.ReactNode) =>
    value === null || value === undefined || value === '' ? null : (
      <div>
        <dt>{t(`patents.columns.${key}`)}</dt>
        <dd>{value}</dd>
      </div>
    );
  return (
    <div className={classes.card}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Group gap="xs" align="flex-start" wrap="nowrap" miw={0}>
          <SelectCell patent={p} />
          <StatusCell patent={p} />
        </Group>
        <EditCell patent={p} />
      </Group>
      <dl className={classes.cardFields}>
        {field('num_publication', p.num_publication ? <PublicationCell patent={p} /> : null)}
        {field('num_depot', p.num_depot ? <CopyCell value={p.num_depot} field="num_depot" testId="copy-filing" /> : null)}
        {field('reference', p.reference ? <CopyCell value={p.reference} field="reference" testId="copy-reference" /> : null)}
        {field('nom', p.nom)}
        {field('pays', p.pays)}
        {field('payeur', p.payeur)}
        {field(
          'publie',
          p.dechu ? (
            <Badge color="red" variant="outline" radius="sm" size="sm" tt="none" data-testid="patent-lapsed">
              {t('patents.lapsed')}
            </Badge>
          ) : (
            p.publié
          ),
        )}
        {field('date_depot', p.date_depot ? <Day iso={p.date_depot} /> : null)}
        {field('mois_date_depot', p.mois_date_depot)}
        {field('date_precedente_annuite', p.date_precedente_annuite ? <Day iso={p.date_precedente_annuite} /> : null)}
        {field('quant_precedent', p.quant_precedent)}
        {field('date_prochaine_annuite', p.date_prochaine_annuite ? <Day iso={p.date_prochaine_annuite} /> : null)}
        {field('limite_date_prochaine_annuite', p.limite_date_prochaine_annuite ? <Day iso={p.limite_date_prochaine_annuite} /> : null)}
      </dl>
      {p.commentaire && (
        <div className={classes.comment} data-testid="patent-comment">
          {p.commentaire}
        </div>
      )}
    </div>
  );
}

export interface PatentsTableProps extends RowState {
  /** How many rows the scroll box holds (a page's rows, or with "all" the result's total) and row i of them, undefined while not loaded. */
  count: number;
  rowAt: (index: number) => AnnuityPatentDto | undefined;
  /** The loaded rows' ids (what the header checkbox of a page ticks). */
  ids: readonly string[];
  sort: PatentSort | null;
  onSort: (column: SortableColumn) => void;
  onToggleAll: () => void;
  /** Index of the first row in the whole result (0 on page 1), and the result's size: aria-rowindex / aria-rowcount. */
  offset: number;
  total: number;
  caption: string;
  /** The "All" view: the header checkbox selects every row of the filter (its label says so). */
  selectAllLabel?: string | undefined;
  /** Told the first and last row index in the DOM (the "All" view fetches the windows covering them). */
  onRange?: ((first: number, last: number) => void) | undefined;
  /** A new value scrolls back to the top (a new search, filter or sort of the "All" view). */
  resetKey?: string | undefined;
}

/** A row whose window is not loaded yet: the height of a row, and says so. */
function LoadingRow({ colCount }: { colCount: number }) {
  const { t } = useTranslation('annuities');
  return (
    <td colSpan={colCount}>
      <Text size="sm" c="dimmed">
        {t('patents.loadingRow')}
      </Text>
    </td>
  );
}

/**
 * The patents of one page (or of the whole file with "all") in a scroll box of about ten rows with a
 * sticky header. Above VIRTUALIZE_ABOVE rows only the rows in view (and a few around) are in the DOM;
 * spacer rows keep the scroll height, aria-rowcount / aria-rowindex keep the position for assistive
 * technology. Sorting is the server's: a header click asks the parent for a new page.
 */
export function PatentsTable(props: PatentsTableProps) {
  const { count, rowAt, ids, sort, onSort, onToggleAll, offset, total, caption, selected, expanded, onToggle, onToggleReasons, onEdit, onCopy, selectAllLabel, onRange, resetKey } = props;
  const { t, i18n } = useTranslation('annuities');
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const scrollRef = useRef<HTMLDivElement>(null);
  const phone = useMediaQuery(PHONE_QUERY);

  const columns = useMemo(
    () => [
      col.display({ id: 'select', header: () => <HeaderCheckbox />, cell: (c) => <SelectCell patent={c.row.original} /> }),
      col.accessor('colour', { header: () => t('patents.columns.colour'), cell: (c) => <StatusCell patent={c.row.original} /> }),
      col.accessor('num_publication', { header: () => t('patents.columns.num_publication'), cell: (c) => <PublicationCell patent={c.row.original} /> }),
      col.accessor('num_depot', { header: () => t('patents.columns.num_depot'), cell: (c) => <CopyCell value={c.getValue()} field="num_depot" testId="copy-filing" /> }),
      col.accessor('reference', { header: () => t('patents.columns.reference'), cell: (c) => <CopyCell value={c.getValue()} field="reference" testId="copy-reference" /> }),
      col.accessor('nom', { header: () => t('patents.columns.nom'), cell: (c) => <div className={classes.name}>{c.getValue()}</div> }),
      col.accessor('pays', { header: () => t('patents.columns.pays'), cell: (c) => c.getValue() }),
      col.accessor('payeur', { header: () => t('patents.columns.payeur'), cell: (c) => c.getValue() }),
      col.accessor('publié', {
        id: 'publie',
        header: () => t('patents.columns.publie'),
        cell: (c) =>
          c.row.original.dechu ? (
            <Badge color="red" variant="outline" radius="sm" size="sm" tt="none" data-testid="patent-lapsed">
              {t('patents.lapsed')}
            </Badge>
          ) : (
            <span className={classes.nowrap}>{c.getValue()}</span>
          ),
      }),
      col.accessor('date_depot', { header: () => t('patents.columns.date_depot'), cell: (c) => <Day iso={c.getValue()} /> }),
      col.accessor('mois_date_depot', { header: () => t('patents.columns.mois_date_depot'), cell: (c) => c.getValue() }),
      col.accessor('date_precedente_annuite', { header: () => t('patents.columns.date_precedente_annuite'), cell: (c) => <Day iso={c.getValue()} /> }),
      col.accessor('quant_precedent', { header: () => t('patents.columns.quant_precedent'), cell: (c) => c.getValue() }),
      col.accessor('date_prochaine_annuite', { header: () => t('patents.columns.date_prochaine_annuite'), cell: (c) => <Day iso={c.getValue()} /> }),
      col.accessor('limite_date_prochaine_annuite', { header: () => t('patents.columns.limite_date_prochaine_annuite'), cell: (c) => <Day iso={c.getValue()} /> }),
      col.accessor('commentaire', {
        header: () => t('patents.columns.commentaire'),
        cell: (c) => (
          <div className={classes.comment} data-testid="patent-comment">
            {c.getValue()}
          </div>
        ),
      }),
      col.display({ id: 'actions', header: () => t('patents.columns.actions'), cell: (c) => <EditCell patent={c.row.original} /> }),
    ],
    // `lang`: the headers' texts change with the language even when `t` keeps its identity. The columns
    // never depend on the rows: flexRender mounts each cell function as a component, so new functions
    // would remount every cell (and lose the focus of the button the edit modal returns to).
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, lang],
  );

  const virtual = count > VIRTUALIZE_ABOVE;
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => (phone ? CARD_ESTIMATE : ROW_ESTIMATE),
    overscan: 12,
    enabled: virtual,
    getItemKey: (i) => rowAt(i)?._id ?? `loading-${i}`,
  });
  const items = virtual ? virtualizer.getVirtualItems() : null;
  const indices = useMemo(() => (items ? items.map((v) => v.index) : Array.from({ length: count }, (_, i) => i)), [items, count]);
  // Only the rows in the DOM go through the table model (with "all", `count` may be 100,000 rows, most not loaded).
  const data = useMemo(() => {
    const byId = new Map<string, AnnuityPatentDto>();
    for (const i of indices) {
      const p = rowAt(i);
      if (p && !byId.has(p._id)) byId.set(p._id, p);
    }
    return [...byId.values()];
  }, [indices, rowAt]);
  const table = useReactTable({ data, columns, getCoreRowModel: getCoreRowModel(), getRowId: (p) => p._id, manualSorting: true });
  const rowsById = table.getRowModel().rowsById;
  const shown = useMemo(() => {
    const seen = new Set<string>();
    return indices.map((index) => {
      const row = rowsById[rowAt(index)?._id ?? ''];
      // A row met twice (windows read at different times) keeps a unique key.
      const key = !row ? `loading-${index}` : seen.has(row.id) ? `${row.id}@${index}` : row.id;
      if (row) seen.add(row.id);
      return { index, row, key };
    });
  }, [indices, rowsById, rowAt]);
  const padTop = items && items.length > 0 ? items[0]!.start : 0;
  const padBottom = items && items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;
  const colCount = columns.length;
  // The "All" view fetches the windows of the rows in the DOM, wherever the scroll went.
  const first = indices.length > 0 ? indices[0]! : 0;
  const last = indices.length > 0 ? indices[indices.length - 1]! : -1;
  useEffect(() => {
    onRange?.(first, last);
  }, [onRange, first, last]);
  const mounted = useRef(false);
  useEffect(() => {
    if (mounted.current && scrollRef.current) scrollRef.current.scrollTop = 0;
    mounted.current = true;
  }, [resetKey]);

  const rowState = useMemo(() => ({ selected, expanded, onToggle, onToggleReasons, onEdit, onCopy }), [selected, expanded, onToggle, onToggleReasons, onEdit, onCopy]);
  const toggleAll = useMemo(() => ({ onToggleAll, ids, label: selectAllLabel }), [onToggleAll, ids, selectAllLabel]);

  if (phone) {
    return (
      <RowStateContext.Provider value={rowState}>
        <ToggleAllContext.Provider value={toggleAll}>
          <Group gap="xs" mb="xs" wrap="nowrap" align="flex-start">
            <HeaderCheckbox />
            <Text size="sm" component="span" aria-hidden="true">
              {selectAllLabel ?? t('patents.selectAllShown')}
            </Text>
          </Group>
          <div ref={scrollRef} className={classes.scroll} tabIndex={0} role="region" aria-label={caption} data-testid="patents-scroll" data-virtual={virtual || undefined}>
            <ul className={classes.cardList} aria-label={caption} data-testid="patents-table">
              {padTop > 0 && <li className={classes.spacer} aria-hidden="true" style={{ height: padTop }} />}
              {shown.map(({ row, index, key }) =>
                row ? (
                  <li
                    key={key}
                    ref={virtual ? virtualizer.measureElement : undefined}
                    data-index={index}
                    className={classes.cardRow}
                    data-colour={row.original.colour}
                    data-selected={selected.has(row.id) || undefined}
                    data-testid="patent-row"
                    data-patent-id={row.id}
                  >
                    <PatentCard patent={row.original} />
                  </li>
                ) : (
                  <li
                    key={key}
                    ref={virtual ? virtualizer.measureElement : undefined}
                    data-index={index}
                    className={classes.cardRow}
                    style={{ height: CARD_ESTIMATE }}
                    aria-busy="true"
                    data-testid="patent-row-loading"
                  >
                    <div className={classes.card}>
                      <Text size="sm" c="dimmed">
                        {t('patents.loadingRow')}
                      </Text>
                    </div>
                  </li>
                ),
              )}
              {padBottom > 0 && <li className={classes.spacer} aria-hidden="true" style={{ height: padBottom }} />}
            </ul>
          </div>
        </ToggleAllContext.Provider>
      </RowStateContext.Provider>
    );
  }

  return (
    <RowStateContext.Provider value={rowState}>
      <ToggleAllContext.Provider value={toggleAll}>
        {/* The scroll box is focusable so a keyboard user can scroll it (axe: scrollable-region-focusable). */}
        <div ref={scrollRef} className={classes.scroll} tabIndex={0} role="region" aria-label={caption} data-testid="patents-scroll" data-virtual={virtual || undefined}>
          <table className={classes.table} aria-rowcount={total + 1} aria-label={caption} data-testid="patents-table">
            <thead>
              {table.getHeaderGroups().map((hg) => (
                <tr key={hg.id} aria-rowindex={1}>
                  {hg.headers.map((h) => {
                    const id = h.column.id;
                    const label = flexRender(h.column.columnDef.header, h.getContext());
                    if (!isSortable(id)) {
                      return (
                        <th key={h.id} scope="col">
                          {id === 'select' ? label : <Text fw={650} size="sm" component="span">{label}</Text>}
                        </th>
                      );
                    }
                    const sorted = sort?.column === id ? sort.order : false;
                    const Icon = sorted === 'asc' ? IconArrowUp : sorted === 'desc' ? IconArrowDown : IconArrowsSort;
                    return (
                      <th key={h.id} scope="col" aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'}>
                        <UnstyledButton onClick={() => onSort(id)} className={tableClasses.sort} data-testid={`sort-${id}`}>
                          <Group gap={4} wrap="nowrap">
                            <span>{label}</span>
                            <Icon size={14} aria-hidden="true" opacity={sorted ? 1 : 0.45} />
                          </Group>
                        </UnstyledButton>
                      </th>
                    );
                  })}
                </tr>
              ))}
            </thead>
            <tbody>
              {padTop > 0 && (
                <tr className={classes.spacer} aria-hidden="true">
                  <td colSpan={colCount} style={{ height: padTop }} />
                </tr>
              )}
              {shown.map(({ row, index, key }) =>
                row ? (
                  <tr
                    key={key}
                    ref={virtual ? virtualizer.measureElement : undefined}
                    data-index={index}
                    aria-rowindex={offset + index + 2}
                    className={classes.row}
                    data-colour={row.original.colour}
                    data-selected={selected.has(row.id) || undefined}
                    data-testid="patent-row"
                    data-patent-id={row.id}
                  >
                    {row.getVisibleCells().map((cell) => (
                      <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>
                    ))}
                  </tr>
                ) : (
                  <tr
                    key={key}
                    ref={virtual ? virtualizer.measureElement : undefined}
                    data-index={index}
                    aria-rowindex={offset + index + 2}
                    aria-busy="true"
                    className={classes.row}
                    style={{ height: ROW_ESTIMATE }}
                    data-testid="patent-row-loading"
                  >
                    <LoadingRow colCount={colCount} />
                  </tr>
                ),
              )}
              {padBottom > 0 && (
                <tr className={classes.spacer} aria-hidden="true">
                  <td colSpan={colCount} style={{ height: padBottom }} />
                </tr>
              )}
            </tbody>
          </table>
        </div>
      </ToggleAllContext.Provider>
    </RowStateContext.Provider>
  );
}
