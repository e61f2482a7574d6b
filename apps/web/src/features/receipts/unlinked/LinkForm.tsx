import { useState } from 'react';
import { Alert, Button, Group, NumberInput, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconLink, IconSearch } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ReceiptDto } from '@portal/contracts';
import { ApiError } from '../../../lib/api.ts';
import { msg } from '../../../lib/message.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { linkReceipt, patentSearchQuery, RECEIPT_SEARCH_DEBOUNCE_MS } from '../receiptsApi.ts';

/** The patent chosen to link: a matcher's candidate or a search result, with the year proposed. */
export interface Choice {
  patentId: string;
  idagenda: string;
  year: number | null;
}

/** Search a patent (the agents' list search), choose it, say the year, link: the receipt leaves the queue. */
export function LinkForm({ receipt, choice, onChoose }: { receipt: ReceiptDto; choice: Choice | null; onChoose: (c: Choice) => void }) {
  const { t } = useTranslation('receipts');
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), RECEIPT_SEARCH_DEBOUNCE_MS);
  const found = useQuery(patentSearchQuery(debounced));
  const [year, setYear] = useState<string | number>('');
  const shownYear = year === '' ? (choice?.year ?? '') : year;
  const link = useMutation({
    mutationFn: () => linkReceipt(receipt._id, { patent_id: choice!.patentId, ...(typeof shownYear === 'number' ? { year: shownYear } : {}) }),
    onSuccess: async () => {
      notifySuccess(msg('receipts:unlinked.linked', { name: receipt.file_name, patent: choice!.idagenda }));
      await queryClient.invalidateQueries({ queryKey: ['receipts'] });
      await queryClient.invalidateQueries({ queryKey: ['patents'] });
    },
  });
  const error = link.error instanceof ApiError ? link.error.message : link.error ? t('unlinked.linkError') : null;
  const id = receipt._id.slice(0, 8);

  return (
    <Stack gap="xs">
      <TextInput
        label={t('unlinked.search')}
        description={t('unlinked.searchHint')}
        leftSection={<IconSearch size={16} aria-hidden="true" />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        data-testid="unlinked-search"
      />
      {debounced.length >= 2 && found.data && (
        <Radio.Group
          value={choice?.patentId ?? null}
          onChange={(value) => {
            const p = found.data.find((r) => r._id === value);
            if (p) onChoose({ patentId: p._id, idagenda: p.idagenda, year: p.Quantieme });
            setYear('');
          }}
          label={t('unlinked.results', { count: found.data.length })}
          name={`patent-${id}`}
        >
          <Stack gap={6} mt={6} data-testid="unlinked-results">
            {found.data.map((p) => (
              <Radio
                key={p._id}
                value={p._id}
                label={[p.idagenda, p.ReferenceClient, p.Pays, p.noDepot, p.NoPublication, p.Quantieme === null ? null : t('unlinked.yearN', { year: p.Quantieme })].filter(Boolean).join(' · ')}
                data-testid="unlinked-result"
              />
            ))}
          </Stack>
        </Radio.Group>
      )}
      {debounced.length >= 2 && found.data?.length === 0 && (
        <Text size="sm" c="dark.4">
          {t('unlinked.noResult')}
        </Text>
      )}
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Text size="sm" fw={600} data-testid="unlinked-chosen" data-idagenda={choice?.idagenda}>
          {choice ? t('unlinked.chosen', { patent: choice.idagenda }) : t('unlinked.noChoice')}
        </Text>
        <NumberInput label={t('unlinked.year')} min={1} max={100} w={120} value={shownYear} onChange={setYear} allowDecimal={false} data-testid="unlinked-year" />
        <Button leftSection={<IconLink size={16} aria-hidden="true" />} disabled={!choice} loading={link.isPending} onClick={() => link.mutate()} data-testid="unlinked-link">
          {t('unlinked.link')}
        </Button>
      </Group>
      {error && (
        <Alert color="red" variant="light" role="alert" data-testid="unlinked-error">
          {error}
        </Alert>
      )}
    </Stack>
  );
}
