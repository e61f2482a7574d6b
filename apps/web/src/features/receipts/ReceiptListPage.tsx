import { useMemo, useState } from 'react';
import { Badge, Button, Checkbox, Group, Paper, ScrollArea, Select, Stack, Text, ThemeIcon } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { IconDownload, IconReceipt, IconUpload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createColumnHelper, type SortingState } from '@tanstack/react-table';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { RECEIPT_SORTS, type ReceiptDto, type ReceiptSort } from '@portal/contracts';
import { msg } from '../../lib/message.tsx';
import { formatDay } from '../../lib/format.ts';
import { DownloadButton } from '../../components/DownloadButton.tsx';
import { Loader } from '../../components/Loader.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Pagination } from '../../components/Pagination.tsx';
import { SearchInput } from '../../components/SearchInput.tsx';
import { SortableTable } from '../../components/SortableTable.tsx';
import { downloadReceipt, RECEIPT_PAGE_SIZES, RECEIPT_SEARCH_DEBOUNCE_MS, receiptListQuery, useReceiptsLive, type ReceiptPageSize } from './receiptsApi.ts';

const col = createColumnHelper<ReceiptDto>();
const PHONE_QUERY = '(max-width: 40em)';
const DEFAULT_SORT: SortingState = [{ id: 'created', desc: true }];
const isSort = (id: string | undefined): id is ReceiptSort => (RECEIPT_SORTS as readonly string[]).includes(id ?? '');

function ReceiptDownload({ receipt }: { receipt: ReceiptDto }) {
  const { t } = useTranslation('receipts');
  return <DownloadButton download={() => downloadReceipt(receipt)} failure={() => msg('receipts:list.downloadError')} label={t('list.download', { name: receipt.file_name })} testId="receipt-download" icon={IconDownload} />;
}

function Flags({ receipt }: { receipt: ReceiptDto }) {
  const { t } = useTranslation('receipts');
  return (
    <Group gap={4} wrap="wrap">
      {receipt.needs_completion && (
        <Badge variant="light" color="orange" c="orange.9" radius="sm" tt="none" data-testid="receipt-to-complete">
          {t('list.toCompleteBadge')}
        </Badge>
      )}
      {receipt.pdf_error && (
        <Badge variant="light" color="red" c="red.9" radius="sm" tt="none" data-testid="receipt-pdf-error">
          {t('list.pdfError')}
        </Badge>
      )}
    </Group>
  );
}

function FileCell({ receipt }: { receipt: ReceiptDto }) {
  return (
    <Stack gap={4} miw={150}>
      <Text size="sm" fw={600} className="portal-break" data-testid="receipt-file">
        {receipt.file_name}
      </Text>
      <Flags receipt={receipt} />
    </Stack>
  );
}

function PatentCell({ receipt }: { receipt: ReceiptDto }) {
  const { t } = useTranslation('receipts');
  return receipt.patent ? (
    <Text size="sm" data-testid="receipt-patent" style={{ whiteSpace: 'nowrap' }}>
      {receipt.patent.idagenda}
    </Text>
  ) : (
    <Text size="sm" c="dark.4" data-testid="receipt-patent" style={{ whiteSpace: 'nowrap' }}>
      {t('list.noPatent')}
    </Text>
  );
}

/** On a phone, one card per receipt (seven columns would hide the download off screen). */
function ReceiptCards({ receipts, empty }: { receipts: ReceiptDto[]; empty: React.ReactNode }) {
  const { t } = useTranslation('receipts');
  if (receipts.length === 0) return <>{empty}</>;
  const line = (label: string, value: string | null) =>
    value ? (
      <Text size="xs">
        <Text span c="dark.4" size="xs">
          {label}
        </Text>{' '}
        {value}
      </Text>
    ) : null;
  return (
    <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} data-testid="receipts-table">
      {receipts.map((r) => (
        <Paper key={r._id} component="li" withBorder p="sm" radius="md" data-testid="receipt-row">
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
            <Stack gap={4} miw={0}>
              <FileCell receipt={r} />
              {line(t('list.columns.reference_client'), r.reference_client)}
              {line(t('list.columns.reference_inpi'), r.reference_inpi)}
              {line(t('list.columns.reference_provider'), r.reference_provider)}
              {line(t('list.columns.date_ordre_paiement'), formatDay(r.date_ordre_paiement))}
              {line(t('list.columns.patent'), r.patent?.idagenda ?? t('list.noPatent'))}
            </Stack>
            <ReceiptDownload receipt={r} />
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}

/** Spec "Receipts" list: a searchable, sortable table (server-side, paged) with a download per row. */
export function ReceiptListPage() {
  const { t } = useTranslation('receipts');
  useReceiptsLive();
  const phone = useMediaQuery(PHONE_QUERY);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, RECEIPT_SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState<ReceiptPageSize>(20);
  const [toComplete, setToComplete] = useState(false);
  const [sorting, setSorting] = useState<SortingState>(DEFAULT_SORT);
  const sortId = sorting[0]?.id;
  const sort: ReceiptSort = isSort(sortId) ? sortId : 'created';
  const order = sorting[0]?.desc === false ? 'asc' : 'desc';
  const list = useQuery(receiptListQuery({ page, limit, search: debounced, sort, order, toComplete }));

  const columns = useMemo(
    () => [
      col.accessor('file_name', { id: 'file_name', header: () => t('list.columns.file'), cell: (c) => <FileCell receipt={c.row.original} /> }),
      col.accessor('reference_client', { id: 'reference_client', header: () => t('list.columns.reference_client'), cell: (c) => c.getValue() ?? '' }),
      col.accessor('reference_inpi', { id: 'reference_inpi', header: () => t('list.columns.reference_inpi'), cell: (c) => c.getValue() ?? '' }),
      col.accessor('reference_provider', { id: 'reference_provider', header: () => t('list.columns.reference_provider'), cell: (c) => c.getValue() ?? '' }),
      col.accessor('date_ordre_paiement', {
        id: 'date_ordre_paiement',
        header: () => t('list.columns.date_ordre_paiement'),
        cell: (c) => (
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            {formatDay(c.getValue())}
          </Text>
        ),
      }),
      col.display({ id: 'patent', header: () => t('list.columns.patent'), cell: (c) => <PatentCell receipt={c.row.original} /> }),
      col.display({ id: 'download', header: () => t('list.columns.download'), cell: (c) => <ReceiptDownload receipt={c.row.original} /> }),
    ],
    [t],
  );

  const data = list.data?.recepisse ?? [];
  const meta = list.data?.meta;
  const filtered = debounced.trim() !== '' || toComplete;
  const empty = (
    <Stack align="center" gap="xs" py="xl" data-testid="receipts-empty">
      <ThemeIcon size={48} radius="xl" variant="light" color="gray">
        <IconReceipt size={26} aria-hidden="true" />
      </ThemeIcon>
      <Text fw={600}>{filtered ? t('list.noMatch') : t('list.empty')}</Text>
      {!filtered && (
        <Text size="sm" c="dark.4">
          {t('list.emptyHint')}
        </Text>
      )}
    </Stack>
  );

  return (
    <Stack gap="lg" maw={1200} mx="auto" w="100%">
      <PageHeader
        title={t('list.title')}
        description={t('list.description')}
        actions={
          <Button component={Link} to="/annuities/upload/receipt" leftSection={<IconUpload size={16} aria-hidden="true" />} data-testid="receipts-new-upload">
            {t('list.newUpload')}
          </Button>
        }
      />
      <Paper withBorder shadow="xs" p="md">
        <Stack gap="md">
          <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
            <Group align="flex-end" gap="md" wrap="wrap">
              <SearchInput
                value={search}
                onValue={(value) => {
                  setSearch(value);
                  setPage(1);
                }}
                fetching={list.isFetching}
                placeholder={t('list.searchPlaceholder')}
                aria-label={t('list.search')}
                data-testid="receipts-search"
                w={{ base: '100%', sm: 320 }}
              />
              <Checkbox
                label={t('list.toComplete')}
                checked={toComplete}
                onChange={(e) => {
                  setToComplete(e.currentTarget.checked);
                  setPage(1);
                }}
                data-testid="receipts-to-complete"
                mb={8}
              />
            </Group>
            <Select
              label={t('list.pageSize')}
              data={RECEIPT_PAGE_SIZES.map((n) => ({ value: String(n), label: String(n) }))}
              value={String(limit)}
              onChange={(v) => {
                const n = Number(v);
                if ((RECEIPT_PAGE_SIZES as readonly number[]).includes(n)) {
                  setLimit(n as ReceiptPageSize);
                  setPage(1);
                }
              }}
              allowDeselect={false}
              w={110}
              data-testid="receipts-page-size"
            />
          </Group>
          {list.isPending ? (
            <Loader loading />
          ) : list.isError ? (
            <LoadError message={t('list.loadError')} retryLabel={t('list.retry')} onRetry={() => void list.refetch().catch(() => undefined)} testId="receipts-load-error" />
          ) : (
            <>
              <Text size="sm" c="dark.4" aria-live="polite" data-testid="receipts-count">
                {t('list.count', { count: meta?.total ?? data.length })}
              </Text>
              {phone ? (
                <ReceiptCards receipts={data} empty={empty} />
              ) : (
                <ScrollArea type="auto">
                  <SortableTable
                    data={data}
                    columns={columns}
                    manualSorting={{
                      sorting,
                      onSortingChange: (next) => {
                        setSorting(next.length ? next : DEFAULT_SORT);
                        setPage(1);
                      },
                    }}
                    rowTestId="receipt-row"
                    testId="receipts-table"
                    empty={empty}
                    minWidth={980}
                    getRowId={(r) => r._id}
                  />
                </ScrollArea>
              )}
              {meta && meta.totalPages > 1 && (
                <Group justify="center">
                  <Pagination total={meta.totalPages} value={page} onChange={setPage} siblings={1} data-testid="receipts-pagination" />
                </Group>
              )}
            </>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
