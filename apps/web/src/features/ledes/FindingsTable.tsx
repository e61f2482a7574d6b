import { useMemo, useState } from 'react';
import { Group, ScrollArea, Stack, Text, ThemeIcon } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconCircleCheck } from '@tabler/icons-react';
import { createColumnHelper } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import type { LedesLineDto } from './api.ts';
import { useItemLabel, useLineLabel } from './labels.ts';
import { flattenFindings, formatFindingValue, PAGE_SIBLINGS, type Finding } from './model.ts';
import { SortableTable } from '../../components/SortableTable.tsx';
import classes from './ledes.module.css';
import { Pagination } from '../../components/Pagination.tsx';

const FINDINGS_PAGE_SIZE = 50;
const col = createColumnHelper<Finding>();

/** What decided the finding, under its message: "Found 715.50 · Expected 705 · Difference 10.50" in the UI language. */
function FindingValues({ finding }: { finding: Finding }) {
  const { t, i18n } = useTranslation('ledes');
  const locale = i18n.resolvedLanguage ?? i18n.language;
  const parts = (['found', 'expected', 'difference'] as const).flatMap((key) => {
    const raw = finding[key];
    if (raw === undefined) return [];
    const value = formatFindingValue(raw, locale);
    return [t(`result.values.${key}`, { value: value.kind === 'number' ? value.text : t('result.values.quoted', { value: value.text }) })];
  });
  // A client's guideline (issue 31 §1): the total over its cap and its reference, in the lazy `guidelines` texts.
  if (finding.over !== undefined) parts.push(t('guidelines:values.over', { v: formatFindingValue(finding.over, locale).text }));
  if (finding.reference !== undefined) parts.push(t('guidelines:preview.reference', { ref: finding.reference }));
  if (parts.length === 0) return null;
  return (
    <Text size="xs" c="dimmed" className="portal-break" data-testid="finding-values">
      {parts.join(' · ')}
    </Text>
  );
}

/** Errors or warnings of one file: displayed line, field, code and the label in the UI language. */
export function FindingsTable({ lines, kind }: { lines: LedesLineDto[]; kind: 'errors' | 'warnings' }) {
  const { t } = useTranslation('ledes');
  const lineLabel = useLineLabel();
  const itemLabel = useItemLabel();
  const [pageIndex, setPageIndex] = useState(0);
  const data = useMemo(() => flattenFindings(lines), [lines]);
  // On a phone the four columns do not fit: the message would sit off-screen. Two columns instead (line, then the
  // message with its field and code under it), so everything reads without scrolling sideways.
  const phone = useMediaQuery('(max-width: 40em)', false, { getInitialValueInEffect: false });
  const codeColor = kind === 'errors' ? 'red.8' : 'orange.8';

  const columns = useMemo(() => {
    // The line number leads both layouts.
    const lineColumn = col.accessor('rank', {
      id: 'line',
      header: () => t('result.columns.line'),
      cell: (c) => (
        <Text size="sm" fw={600} data-testid="finding-line">
          {lineLabel(c.row.original.line)}
        </Text>
      ),
    });
    return phone
        ? [
            lineColumn,
            col.accessor((f) => itemLabel(f), {
              id: 'label',
              header: () => t('result.columns.message'),
              cell: (c) => (
                <Stack gap={2}>
                  <Text size="sm" data-testid="finding-label" className="portal-break">
                    {c.getValue()}
                  </Text>
                  <FindingValues finding={c.row.original} />
                  <Group gap={6} wrap="wrap">
                    <Text className={classes.code} data-testid="finding-field">
                      {c.row.original.champ}
                    </Text>
                    <Text className={classes.code} fw={600} c={codeColor} data-testid="finding-code">
                      {c.row.original.code_ledes}
                    </Text>
                  </Group>
                </Stack>
              ),
            }),
          ]
        : [
          lineColumn,
          col.accessor('champ', {
            header: () => t('result.columns.field'),
            cell: (c) => (
              <Text className={classes.code} data-testid="finding-field">
                {c.getValue()}
              </Text>
            ),
          }),
          col.accessor('code_ledes', {
            header: () => t('result.columns.code'),
            cell: (c) => (
              <Text className={classes.code} fw={600} c={codeColor} data-testid="finding-code">
                {c.getValue()}
              </Text>
            ),
          }),
          col.accessor((f) => itemLabel(f), {
            id: 'label',
            header: () => t('result.columns.message'),
            cell: (c) => (
              <Stack gap={2}>
                <Text size="sm" data-testid="finding-label">
                  {c.getValue()}
                </Text>
                <FindingValues finding={c.row.original} />
              </Stack>
            ),
          }),
          ];
  }, [t, lineLabel, itemLabel, codeColor, phone]);

  if (data.length === 0) {
    return (
      <Group gap="sm" py="md" data-testid={`no-${kind}`}>
        <ThemeIcon color="teal" variant="light" radius="xl" size={28}>
          <IconCircleCheck size={18} aria-hidden="true" />
        </ThemeIcon>
        <Text size="sm" c="dimmed">
          {t(kind === 'errors' ? 'result.noErrors' : 'result.noWarnings')}
        </Text>
      </Group>
    );
  }

  const pages = Math.ceil(data.length / FINDINGS_PAGE_SIZE);
  const page = Math.min(pageIndex, pages - 1);
  return (
    <Stack gap="sm">
      <ScrollArea type="auto">
        <SortableTable
          data={data}
          columns={columns}
          initialSorting={[{ id: 'line', desc: false }]}
          pagination={{ pageIndex: page, pageSize: FINDINGS_PAGE_SIZE }}
          rowTestId={`finding-${kind}`}
          testId={`findings-${kind}`}
          empty={null}
          {...(phone ? {} : { minWidth: 640 })}
          getRowId={(f) => f.key}
        />
      </ScrollArea>
      {pages > 1 && (
        <Group justify="flex-end">
          <Pagination total={pages} value={page + 1} onChange={(p) => setPageIndex(p - 1)} siblings={PAGE_SIBLINGS} size="sm" />
        </Group>
      )}
    </Stack>
  );
}
