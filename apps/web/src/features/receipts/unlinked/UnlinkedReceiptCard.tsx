import { useState } from 'react';
import { Badge, Button, Divider, Group, Paper, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ReceiptDto, ReceiptMatchCandidateDto } from '@portal/contracts';
import { formatDay } from '../../../lib/format.ts';
import { CardLine } from '../../../components/list/CardLine.tsx';
import { LinkForm, type Choice } from './LinkForm.tsx';

const CONFIDENCE_COLOR = { sure: 'green', ambiguous: 'orange', none: 'gray' } as const;

function Candidates({ candidates, chosen, onChoose }: { candidates: ReceiptMatchCandidateDto[]; chosen: string | null; onChoose: (c: Choice) => void }) {
  const { t } = useTranslation('receipts');
  if (candidates.length === 0) return <Text size="sm" c="dark.4">{t('unlinked.noCandidate')}</Text>;
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped withTableBorder fz="sm" data-testid="unlinked-candidates">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('unlinked.columns.patent')}</Table.Th>
            <Table.Th>{t('unlinked.columns.numbers')}</Table.Th>
            <Table.Th>{t('unlinked.columns.year')}</Table.Th>
            <Table.Th>{t('unlinked.columns.amount')}</Table.Th>
            <Table.Th>{t('unlinked.columns.evidence')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('unlinked.columns.choose')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {candidates.map((c) => (
            <Table.Tr key={`${c.record_id}-${c.year ?? ''}`} data-testid="unlinked-candidate">
              <Table.Td>
                <Text size="sm" fw={600}>{c.idagenda ?? '—'}</Text>
                <Text size="xs" c="dark.4">{[c.reference_client, c.pays].filter(Boolean).join(' · ')}</Text>
              </Table.Td>
              <Table.Td>{[c.numero_depot, c.numero_publication].filter(Boolean).join(' · ') || '—'}</Table.Td>
              <Table.Td>{c.year === null ? '—' : `${c.year}${c.year_printed ? ` (${t('unlinked.printed')})` : ''}`}</Table.Td>
              <Table.Td>{c.amount ? `${c.amount} ${c.currency ?? ''}`.trim() : '—'}</Table.Td>
              <Table.Td>{c.evidence.map((e) => t(`unlinked.evidence.${e}`, { defaultValue: e })).join(', ')}</Table.Td>
              <Table.Td>
                <Button size="compact-sm" variant={chosen === c.record_id ? 'filled' : 'light'} aria-pressed={chosen === c.record_id} onClick={() => onChoose({ patentId: c.record_id, idagenda: c.idagenda ?? c.record_id, year: c.year })} data-testid="unlinked-choose">
                  {t('unlinked.choose')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** One unlinked receipt: what was read from it, the matcher's candidates, and the link form. */
export function UnlinkedReceiptCard({ receipt: r }: { receipt: ReceiptDto }) {
  const { t } = useTranslation('receipts');
  const [choice, setChoice] = useState<Choice | null>(null);
  const confidence = r.match_confidence ?? 'none';
  return (
    <Paper withBorder shadow="xs" p="md" data-testid="unlinked-row" component="article" aria-label={r.file_name}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={700} className="portal-break" data-testid="unlinked-file">
            {r.file_name}
          </Text>
          <Badge variant="light" color={CONFIDENCE_COLOR[confidence]} c={`${CONFIDENCE_COLOR[confidence]}.9`} radius="sm" tt="none" data-testid="unlinked-confidence">
            {t(`unlinked.confidence.${r.match_confidence ?? 'unknown'}`)}
          </Badge>
        </Group>
        <Stack gap={2}>
          <CardLine label={t('list.columns.reference_client')} value={r.reference_client} />
          <CardLine label={t('list.columns.reference_inpi')} value={r.reference_inpi} />
          <CardLine label={t('list.columns.reference_provider')} value={r.reference_provider} />
          <CardLine label={t('list.columns.date_ordre_paiement')} value={formatDay(r.date_ordre_paiement)} />
        </Stack>
        <Text size="sm" fw={600}>{t('unlinked.candidates')}</Text>
        <Candidates candidates={r.match_candidates ?? []} chosen={choice?.patentId ?? null} onChoose={setChoice} />
        <Divider />
        <LinkForm receipt={r} choice={choice} onChoose={setChoice} />
      </Stack>
    </Paper>
  );
}
