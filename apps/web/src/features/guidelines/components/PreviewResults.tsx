import { Badge, Group, List, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { GuidelinePreviewResponse } from '@portal/contracts';
import { formatDate, formatNumber } from '../../../lib/format.ts';

type PreviewRun = GuidelinePreviewResponse['runs'][number];

/** What the set as edited would have said of each of the client's last files (the oldest left out past the time budget). */
export function PreviewResults({ runs, unchecked = 0, budgetSeconds = 0 }: { runs: PreviewRun[]; unchecked?: number; budgetSeconds?: number }) {
  const { t, i18n } = useTranslation('guidelines');
  const left = unchecked > 0 ? (
    <Text c="dimmed" role="status" data-testid="guideline-preview-unchecked">
      {t('preview.unchecked', { count: unchecked, seconds: budgetSeconds })}
    </Text>
  ) : null;
  if (runs.length === 0) return left ?? <Text c="dimmed">{t('preview.none')}</Text>;
  const refused = runs.filter((r) => r.refused_by_guidelines).length;
  return (
    <Stack gap="sm" data-testid="guideline-preview">
      <Text fw={600}>{t('preview.summary', { refused, count: runs.length })}</Text>
      {left}
      {runs.map((run) => (
        <Paper key={run.run_id} withBorder p="sm" data-testid="guideline-preview-run">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {run.filename}
            </Text>
            <Group gap="xs">
              <Badge color={run.accepted_then ? 'green' : 'gray'} variant="light">
                {run.accepted_then ? t('preview.acceptedThen') : t('preview.refusedThen')}
              </Badge>
              <Badge color={run.refused_by_guidelines ? 'red' : run.warnings > 0 ? 'yellow' : 'green'}>
                {run.refused_by_guidelines ? t('preview.wouldRefuse') : t('preview.wouldAccept')}
              </Badge>
            </Group>
          </Group>
          <Text size="sm" c="dimmed">
            {formatDate(run.created)} · {t('preview.counts', { errors: t('preview.errors', { count: run.errors }), warnings: t('preview.warnings', { count: run.warnings }) })}
          </Text>
          {run.findings.length > 0 && (
            <List size="sm" mt="xs" spacing={4}>
              {run.findings.map((f, i) => (
                <List.Item key={`${String(f.line)}-${f.code}-${i}`}>
                  <Text span fw={600}>
                    {f.code}
                  </Text>{' '}
                  {t('preview.line', { line: typeof f.line === 'number' ? f.line + 1 : f.line })} — {i18n.language === 'fr' ? f.libelle_fr : f.libelle_en}
                  {f.reference ? ` (${t('preview.reference', { ref: f.reference })})` : ''}
                  {valuesOf(f, t)}
                </List.Item>
              ))}
            </List>
          )}
        </Paper>
      ))}
    </Stack>
  );
}

function valuesOf(f: PreviewRun['findings'][number], t: (key: string, o?: Record<string, unknown>) => string): string {
  const parts: string[] = [];
  const n = (v: string) => (/^-?\d+(\.\d+)?$/.test(v) ? formatNumber(v) : v);
  if (f.found !== undefined) parts.push(t('values.found', { v: n(f.found) }));
  if (f.expected !== undefined) parts.push(t('values.expected', { v: n(f.expected) }));
  if (f.difference !== undefined) parts.push(t('values.difference', { v: n(f.difference) }));
  if (f.over !== undefined) parts.push(t('values.over', { v: n(f.over) }));
  return parts.length === 0 ? '' : t('values.suffix', { list: parts.join(', ') });
}
