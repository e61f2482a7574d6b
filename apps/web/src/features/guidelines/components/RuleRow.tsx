import { ActionIcon, Group, NumberInput, Paper, Select, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { GUIDELINE_RULE_KINDS } from '@portal/contracts';

/** A rule as edited: every field as text (the schema converts and checks on save). */
export interface RuleDraft {
  kind: (typeof GUIDELINE_RULE_KINDS)[number];
  ref: string;
  severity: 'error' | 'warning';
  classification?: string;
  max?: string;
  from?: string;
  to?: string;
  min_tasks?: number;
  min_units?: string;
  code?: string;
  matters?: string;
  max_unit_cost?: string;
  above?: string;
  max_days?: number;
}

/** The parameters each kind of rule takes, in the order shown. */
const FIELDS: Record<RuleDraft['kind'], readonly (keyof RuleDraft)[]> = {
  max_rate: ['classification', 'max', 'from', 'to'],
  max_units_per_day: ['max'],
  block_billing: ['min_tasks', 'min_units'],
  code: ['code', 'matters'],
  expense_cap: ['code', 'max_unit_cost'],
  receipt: ['code', 'above'],
  max_billing_period: ['max_days'],
  max_upload_delay: ['max_days'],
  duplicate_line: [],
};
const NUMBERS: ReadonlySet<keyof RuleDraft> = new Set(['min_tasks', 'max_days']);
const DATES: ReadonlySet<keyof RuleDraft> = new Set(['from', 'to']);

export function RuleRow({ index, rule, error, onChange, onRemove }: { index: number; rule: RuleDraft; error?: string; onChange: (rule: RuleDraft) => void; onRemove: () => void }) {
  const { t } = useTranslation('guidelines');
  const set = (key: keyof RuleDraft, value: unknown) => onChange({ ...rule, [key]: value === '' ? undefined : value });
  return (
    <Paper withBorder p="sm" data-testid="guideline-rule">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Select
          label={t('rule.kind')}
          data={GUIDELINE_RULE_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
          value={rule.kind}
          allowDeselect={false}
          onChange={(v) => v && onChange({ kind: v, ref: rule.ref, severity: rule.severity })}
          w={{ base: '100%', sm: 330 }}
        />
        <TextInput label={t('rule.ref')} data-testid="guideline-ref" value={rule.ref} onChange={(e) => set('ref', e.currentTarget.value)} w={110} error={error} />
        <Select
          label={t('rule.severity')}
          data={[{ value: 'error', label: t('severity.error') }, { value: 'warning', label: t('severity.warning') }]}
          value={rule.severity}
          allowDeselect={false}
          onChange={(v) => v && set('severity', v)}
          w={200}
        />
        {FIELDS[rule.kind].map((key) =>
          NUMBERS.has(key) ? (
            <NumberInput key={key} data-testid={`guideline-field-${key}`} label={t(`field.${key}`)} value={(rule[key] as number | undefined) ?? ''} onChange={(v) => set(key, typeof v === 'number' ? v : undefined)} min={0} allowDecimal={false} w={150} />
          ) : (
            <TextInput
              key={key}
              data-testid={`guideline-field-${key}`}
              type={DATES.has(key) ? 'date' : 'text'}
              label={t(`field.${key}`)}
              value={(rule[key] as string | undefined) ?? ''}
              onChange={(e) => set(key, e.currentTarget.value)}
              w={key === 'matters' ? 220 : 150}
            />
          ),
        )}
        <ActionIcon variant="subtle" color="red" size="lg" onClick={onRemove} aria-label={t('rule.remove', { n: index + 1 })}>
          <IconTrash size={18} />
        </ActionIcon>
      </Group>
    </Paper>
  );
}

/** The draft as the API takes it: empty fields left out, matters split on commas. */
export function toRule(d: RuleDraft): Record<string, unknown> {
  const out: Record<string, unknown> = { kind: d.kind, ref: d.ref, severity: d.severity };
  for (const key of FIELDS[d.kind]) {
    const v = d[key];
    if (v === undefined || v === '') continue;
    out[key] = key === 'matters' ? String(v).split(',').map((m) => m.trim()).filter((m) => m !== '') : v;
  }
  return out;
}

export function fromRule(r: Record<string, unknown>): RuleDraft {
  const d = { ...r } as unknown as RuleDraft & { matters?: unknown };
  if (Array.isArray(r.matters)) d.matters = (r.matters as string[]).join(', ');
  return d;
}
