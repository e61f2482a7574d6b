import { useMemo, useState } from 'react';
import { Badge, Button, Checkbox, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconDownload, IconLinkOff, IconReceipt, IconUpload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { RECEIPT_SORTS, type ReceiptDto, type ReceiptSort } from '@portal/contracts';
import { isAdmin, LOGGED_OUT } from '../../lib/access.ts';
import { sessionQuery } from '../../lib/auth.ts';
import { msg } from '../../lib/message.tsx';
import { formatDay } from '../../lib/format.ts';
import { DownloadButton } from '../../components/DownloadButton.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { CardLine } from '../../components/list/CardLine.tsx';
import { ServerList } from '../../components/list/ServerList.tsx';
import { useServerList } from '../../components/list/useServerList.ts';
import { downloadReceipt, RECEIPT_PAGE_SIZES, RECEIPT_SEARCH_DEBOUNCE_MS, receiptListQuery, useReceiptsLive, type ReceiptPageSize } from './receiptsApi.ts';

const col = createColumnHelper<ReceiptDto>();
const DEFAULT_SORT = { id: 'created', desc: true } as const;

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
function ReceiptCard({ receipt: r }: { receipt: ReceiptDto }) {
  const { t } = useTranslation('receipts');
  return (
    <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
      <Stack gap={4} miw={0}>
        <FileCell receipt={r} />
        <CardLine label={t('list.columns.reference_client')} value={r.reference_client} />
        <CardLine label={t('list.columns.reference_inpi')} value={r.reference_inpi} />
        <CardLine label={t('list.columns.reference_provider')} value={r.reference_provider} />
        <CardLine label={t('list.columns.date_ordre_paiement')} value={formatDay(r.date_ordre_paiement)} />
        <CardLine label={t('list.columns.patent')} value={r.patent?.idagenda ?? t('list.noPatent')} />
      </Stack>
      <ReceiptDownload receipt={r} />
    </Group>
  );
}

/** Spec "Receipts" list: a searchable, sortable table (server-side, paged) with a download per row. */
export function ReceiptListPage() {
  const { t } = useTranslation('receipts');
  useReceiptsLive();
  const state = useServerList<ReceiptSort>({ defaultSort: DEFAULT_SORT, sorts: RECEIPT_SORTS, debounceMs: RECEIPT_SEARCH_DEBOUNCE_MS, defaultLimit: 20 });
  const { debounced, page, sort, order } = state;
  const limit = state.limit as ReceiptPageSize;
  const [toComplete, setToComplete] = useState(false);
  const list = useQuery(receiptListQuery({ page, limit, search: debounced, sort, order, toComplete }));
  const admin = isAdmin(useQuery(sessionQuery).data ?? { ...LOGGED_OUT, user: null });

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
          <Group gap="sm">
            {admin && (
              <Button component={Link} to="/annuities/list-receipt/unlinked" variant="default" leftSection={<IconLinkOff size={16} aria-hidden="true" />} data-testid="receipts-unlinked">
                {t('unlinked.open')}
              </Button>
            )}
            <Button component={Link} to="/annuities/upload/receipt" leftSection={<IconUpload size={16} aria-hidden="true" />} data-testid="receipts-new-upload">
              {t('list.newUpload')}
            </Button>
          </Group>
        }
      />
      <Paper withBorder shadow="xs" p="md">
        <ServerList
          query={list}
          state={state}
          rows={data}
          totalPages={meta?.totalPages}
          columns={columns}
          card={(r) => <ReceiptCard receipt={r} />}
          getRowId={(r) => r._id}
          testId="receipts-table"
          rowTestId="receipt-row"
          empty={empty}
          error={<LoadError message={t('list.loadError')} retryLabel={t('list.retry')} onRetry={() => void list.refetch().catch(() => undefined)} testId="receipts-load-error" />}
          count={{ text: t('list.count', { count: meta?.total ?? data.length }), testId: 'receipts-count' }}
          search={{ placeholder: t('list.searchPlaceholder'), ariaLabel: t('list.search'), testId: 'receipts-search', fetching: list.isFetching }}
          filters={
            <Checkbox
              label={t('list.toComplete')}
              checked={toComplete}
              onChange={(e) => {
                setToComplete(e.currentTarget.checked);
                state.firstPage();
              }}
              data-testid="receipts-to-complete"
              mb={8}
            />
          }
          pageSize={{ sizes: RECEIPT_PAGE_SIZES, label: t('list.pageSize'), testId: 'receipts-page-size' }}
          minWidth={980}
          pagination={{ siblings: 1, testId: 'receipts-pagination' }}
        />
      </Paper>
    </Stack>
  );
}
