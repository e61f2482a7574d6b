import { useEffect, useState } from 'react';
import { Button, Group, Pagination, Paper, Stack, Table, Text } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { IconFileSpreadsheet, IconPencil } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LazyPatentsModal } from './LazyPatentsModal.tsx';
import type { AnnuityFileDto, AnnuityPatentDto, AnnuityResearchResponse } from '@portal/contracts';
import { Loader } from '../../components/Loader.tsx';
import { SearchInput } from '../../components/SearchInput.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { msg } from '../../lib/message.tsx';
import { notifyError } from '../../lib/notify.ts';
import { ColourBadge } from './ColourBadge.tsx';
import { EditPatentModal } from './EditPatentModal.tsx';
import { DEFAULT_PATENT_PAGE, patentPageQuery, researchQuery } from './patentsApi.ts';
import { formatDay, PAGE_SIBLINGS, PAGINATION_DEBOUNCE_MS, patentLabel, SEARCH_DEBOUNCE_MS } from './patentsModel.ts';

// The patents modal (and its virtualized table) loads when a file is first opened.

type Hit = AnnuityResearchResponse['data'][number];

function fileName(file: Hit['file']): string {
  return file.title ?? file.name_file_import;
}

/**
 * /annuities/research: one search across the patents of every Done file the user may read. Each hit
 * shows its numbers, reference, name, file, colour and next due date; it opens the edit patent modal,
 * and "open the file" opens the patents-by-file modal of its file.
 */
export function ResearchPage() {
  const { t } = useTranslation('annuities');
  const client = useQueryClient();
  const [q, setQ] = useState('');
  const [debouncedQ] = useDebouncedValue(q.trim(), SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const [debouncedPage] = useDebouncedValue(page, PAGINATION_DEBOUNCE_MS);
  useEffect(() => setPage(1), [debouncedQ]);
  const effectivePage = page === 1 ? 1 : debouncedPage;
  const [editing, setEditing] = useState<{ patent: AnnuityPatentDto; file: string } | null>(null);
  const [openFile, setOpenFile] = useState<AnnuityFileDto | null>(null);

  const phone = useMediaQuery('(max-width: 40em)');
  const research = useQuery(researchQuery(debouncedQ, effectivePage));
  // The file entity comes with its first page of patents (the modal's default page, so it opens from cache).
  const opening = useMutation({
    mutationFn: (fileId: string) => client.fetchQuery(patentPageQuery(fileId, DEFAULT_PATENT_PAGE)).then((r) => r.file),
    onSuccess: setOpenFile,
    onError: () => notifyError(msg('annuities:research.fileError')),
  });

  const hitActions = (patent: AnnuityPatentDto, file: Hit['file']) => (
    <Group gap={6} wrap="nowrap">
      <Button
        size="compact-sm"
        variant="light"
        leftSection={<IconPencil size={14} aria-hidden="true" />}
        onClick={() => setEditing({ patent, file: fileName(file) })}
        aria-label={t('research.edit', { name: patentLabel(patent) })}
        data-testid="research-edit"
      >
        {t('research.editShort')}
      </Button>
      <Button
        size="compact-sm"
        variant="default"
        leftSection={<IconFileSpreadsheet size={14} aria-hidden="true" />}
        onClick={() => opening.mutate(file._id)}
        loading={opening.isPending && opening.variables === file._id}
        aria-label={t('research.openFile', { name: fileName(file) })}
        data-testid="research-open-file"
      >
        {t('research.openFileShort')}
      </Button>
    </Group>
  );

  const hits = debouncedQ ? (research.data?.data ?? []) : [];
  const meta = debouncedQ ? research.data?.meta : undefined;
  const fetching = research.isFetching;

  return (
    <Stack gap="lg">
      <PageHeader title={t('research.title')} description={t('research.description')} />
      <Paper withBorder shadow="xs" p="md">
        <Stack gap="md">
          <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
            <SearchInput
              label={t('research.searchLabel')}
              placeholder={t('research.search')}
              fetching={fetching}
              value={q}
              onValue={setQ}
              w={{ base: '100%', sm: 460 }}
              maxLength={200}
              data-testid="research-search"
            />
            <Text size="sm" c="dimmed" aria-live="polite" data-testid="research-count">
              {meta ? t('research.count', { count: meta.total }) : ''}
            </Text>
          </Group>
          {!debouncedQ ? (
            <Text ta="center" c="dimmed" py="xl" data-testid="research-idle">
              {t('research.idle')}
            </Text>
          ) : research.isPending ? (
            <Loader loading />
          ) : research.isError ? (
            <LoadError message={t('research.error')} retryLabel={t('research.retry')} onRetry={() => void research.refetch().catch(() => undefined)} testId="research-error" />
          ) : hits.length === 0 ? (
            <Text ta="center" c="dimmed" py="xl" data-testid="research-empty">
              {t('research.noMatch', { q: debouncedQ })}
            </Text>
          ) : phone ? (
            <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} data-testid="research-list">
              {hits.map(({ patent, file }) => (
                <Paper component="li" withBorder radius="md" p="sm" key={patent._id} data-testid="research-hit" data-patent-id={patent._id} data-file-id={file._id}>
                  <Stack gap={4}>
                    <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                      <Text size="sm" fw={650} data-testid="research-reference" style={{ overflowWrap: 'anywhere' }}>
                        {patent.reference}
                      </Text>
                      <ColourBadge colour={patent.colour} ledger={patent.ledger?.state} />
                    </Group>
                    {patent.nom && <Text size="sm">{patent.nom}</Text>}
                    <Text size="xs" c="dimmed">
                      {[patent.num_publication && t('research.publication', { value: patent.num_publication }), patent.num_depot && t('research.filing', { value: patent.num_depot })].filter(Boolean).join(' · ')}
                    </Text>
                    <Group gap="md" wrap="wrap" align="flex-start">
                      <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
                        <Text size="xs" c="dimmed">
                          {t('research.columns.file')}
                        </Text>
                        <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="research-file">
                          {fileName(file)}
                        </Text>
                      </Stack>
                      <Stack gap={0}>
                        <Text size="xs" c="dimmed">
                          {t('research.columns.next')}
                        </Text>
                        <Text size="sm" data-testid="research-next">
                          {formatDay(patent.date_prochaine_annuite)}
                        </Text>
                      </Stack>
                    </Group>
                    <Group mt={4}>{hitActions(patent, file)}</Group>
                  </Stack>
                </Paper>
              ))}
            </Stack>
          ) : (
            <Table.ScrollContainer minWidth={860} type="native">
              <Table verticalSpacing="sm" striped data-testid="research-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('research.columns.patent')}</Table.Th>
                    <Table.Th scope="col">{t('research.columns.reference')}</Table.Th>
                    <Table.Th scope="col">{t('research.columns.nom')}</Table.Th>
                    <Table.Th scope="col">{t('research.columns.file')}</Table.Th>
                    <Table.Th scope="col">{t('research.columns.colour')}</Table.Th>
                    <Table.Th scope="col">{t('research.columns.next')}</Table.Th>
                    <Table.Th scope="col">{t('research.columns.actions')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {hits.map(({ patent, file }) => (
                    <Table.Tr key={patent._id} data-testid="research-hit" data-patent-id={patent._id} data-file-id={file._id}>
                      <Table.Td>
                        <Stack gap={0}>
                          {patent.num_publication && <Text size="sm">{t('research.publication', { value: patent.num_publication })}</Text>}
                          {patent.num_depot && (
                            <Text size="xs" c="dimmed">
                              {t('research.filing', { value: patent.num_depot })}
                            </Text>
                          )}
                        </Stack>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" data-testid="research-reference">
                          {patent.reference}
                        </Text>
                      </Table.Td>
                      <Table.Td style={{ overflowWrap: 'anywhere', maxWidth: 260 }}>
                        <Text size="sm">{patent.nom}</Text>
                      </Table.Td>
                      <Table.Td style={{ overflowWrap: 'anywhere', maxWidth: 220 }}>
                        <Text size="sm" data-testid="research-file">
                          {fileName(file)}
                        </Text>
                        {file.reference_date && (
                          <Text size="xs" c="dimmed">
                            {t('patents.checkedOn', { date: formatDay(file.reference_date) })}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <ColourBadge colour={patent.colour} ledger={patent.ledger?.state} />
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" style={{ whiteSpace: 'nowrap' }} data-testid="research-next">
                          {formatDay(patent.date_prochaine_annuite)}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        {hitActions(patent, file)}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {meta && meta.totalPages > 1 && (
            <Group justify="center">
              <Pagination
                total={meta.totalPages}
                value={page}
                onChange={setPage}
                siblings={PAGE_SIBLINGS}
                boundaries={1}
                getControlProps={(control) => ({ 'aria-label': t(`pageControl.${control}`) })}
                aria-label={t('research.pagination')}
                data-testid="research-pagination"
              />
            </Group>
          )}
        </Stack>
      </Paper>
      <EditPatentModal patent={editing?.patent ?? null} fileName={editing?.file} onClose={() => setEditing(null)} />
      <LazyPatentsModal file={openFile} onClose={() => setOpenFile(null)} />
    </Stack>
  );
}
