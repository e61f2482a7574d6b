import { useState } from 'react';
import { Alert, Badge, Button, Group, NumberInput, Paper, Select, SimpleGrid, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CostTablesResponse } from '@portal/contracts';
import { ApiError } from '../../lib/api.ts';
import { formatBytes } from '../../lib/files.ts';
import { formatDate, formatMoney, formatNumber } from '../../lib/format.ts';
import { msg } from '../../lib/message.tsx';
import { notifySuccess } from '../../lib/notify.ts';
import { UploadForm, useFileUpload } from '../../components/UploadForm.tsx';
import { Loader } from '../../components/Loader.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { addAgentFee, addServiceFee, COST_OFFICES, costTablesKey, costTablesQuery, deleteAgentFee, deleteServiceFee, RATE_FILE_RULES, uploadEcbFile } from './costsApi.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Admins' cost tables (issue 30 §1, decision 199): ECB reference-rate files imported by hand, the agents'
 * fees per office and the cabinets' service fees with their validity, and the engine's official fee
 * tables with their sources (read-only). Every date shown comes from the server.
 */
export function CostTablesPage() {
  const { t } = useTranslation('costs');
  const tables = useQuery(costTablesQuery());
  return (
    <Stack gap="xl" maw={1100} mx="auto" w="100%">
      <PageHeader title={t('title')} description={t('description')} />
      <EcbSection data={tables.data} />
      {tables.isPending && <Loader loading />}
      {tables.isError && <LoadError message={t('loadError')} retryLabel={t('retry')} onRetry={() => void tables.refetch().catch(() => undefined)} testId="costs-load-error" />}
      {tables.data && (
        <>
          <AgentFeesSection data={tables.data} />
          <ServiceFeesSection data={tables.data} />
          <OfficialTablesSection data={tables.data} />
        </>
      )}
    </Stack>
  );
}

function errorText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}

function EcbSection({ data }: { data: CostTablesResponse | undefined }) {
  const { t } = useTranslation('costs');
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const upload = useFileUpload(uploadEcbFile, {
    onSuccess: (res) => {
      void queryClient.invalidateQueries({ queryKey: costTablesKey }).catch(() => undefined);
      notifySuccess(msg('costs:ecb.imported', { count: res.ecb_import.days, written: res.ecb_import.written }));
    },
    onError: (e) => setError(errorText(e, t('errors.generic'))),
  });
  return (
    <Stack gap="md" component="section" aria-labelledby="costs-ecb-title">
      <Title order={2} size="h3" id="costs-ecb-title">
        {t('ecb.title')}
      </Title>
      <Text size="sm">{t('ecb.help')}</Text>
      <UploadForm
        upload={upload}
        label={t('ecb.file')}
        hint={t('ecb.hint', { size: formatBytes(RATE_FILE_RULES.maxBytes) })}
        rules={RATE_FILE_RULES}
        fileError={error}
        onChosen={() => setError(null)}
        onSubmit={() => setError(upload.start() === 'no-file' ? t('ecb.chooseFile') : null)}
        submitLabel={t('ecb.submit')}
        testIds={{ form: 'ecb-form', input: 'ecb-file-input', error: 'error-ecb-file', submit: 'ecb-submit' }}
      />
      {data && (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <div tabIndex={0} role="region" aria-label={t('ecb.latestTitle')} style={{ overflowX: 'auto', minWidth: 0, maxWidth: '100%', position: 'relative' }}>
            <Table verticalSpacing={4} fz="sm" captionSide="top" data-testid="ecb-latest">
              <Table.Caption>{t('ecb.latestTitle')}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('ecb.columns.currency')}</Table.Th>
                  <Table.Th ta="right">{t('ecb.columns.rate')}</Table.Th>
                  <Table.Th>{t('ecb.columns.day')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.ecb.latest.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={3}>{t('ecb.none')}</Table.Td>
                  </Table.Tr>
                )}
                {data.ecb.latest.map((r) => (
                  <Table.Tr key={r.currency}>
                    <Table.Td>{r.currency}</Table.Td>
                    <Table.Td ta="right">{formatNumber(r.per_eur)}</Table.Td>
                    <Table.Td>{formatDate(r.day)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </div>
          <div tabIndex={0} role="region" aria-label={t('ecb.importsTitle')} style={{ overflowX: 'auto', minWidth: 0, maxWidth: '100%', position: 'relative' }}>
            <Table verticalSpacing={4} fz="sm" captionSide="top" data-testid="ecb-imports">
              <Table.Caption>{t('ecb.importsTitle')}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('ecb.columns.file')}</Table.Th>
                  <Table.Th>{t('ecb.columns.period')}</Table.Th>
                  <Table.Th ta="right">{t('ecb.columns.written')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.ecb.imports.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={3}>{t('ecb.none')}</Table.Td>
                  </Table.Tr>
                )}
                {data.ecb.imports.map((i) => (
                  <Table.Tr key={i._id}>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{i.file_name}</Table.Td>
                    <Table.Td>{t('ecb.period', { from: formatDate(i.first_day), to: formatDate(i.last_day) })}</Table.Td>
                    <Table.Td ta="right">{t('ecb.writtenOf', { written: formatNumber(i.written), rates: formatNumber(i.rates) })}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </div>
        </SimpleGrid>
      )}
    </Stack>
  );
}

interface FeeFormValues {
  key: string;
  amount: number | string;
  currency: string;
  margin: number | string;
  valid_from: string;
  valid_until: string;
  note: string;
}

function useFeeForm(currency: string) {
  const { t } = useTranslation('costs');
  return useForm<FeeFormValues>({
    mode: 'controlled',
    initialValues: { key: '', amount: '', currency, margin: '', valid_from: '', valid_until: '', note: '' },
    validate: {
      key: (v) => (v ? null : t('form.required')),
      amount: (v) => (typeof v === 'number' && v >= 0 ? null : t('form.amount')),
      currency: (v) => (/^[A-Z]{3}$/.test(v) ? null : t('form.currency')),
      valid_from: (v) => (DAY.test(v) ? null : t('form.day')),
      valid_until: (v, values) => (v === '' || (DAY.test(v) && v >= values.valid_from) ? null : t('form.until')),
    },
  });
}

function FeeForm({ kind, options, onSubmit, pending, error }: { kind: 'agent' | 'service'; options: { value: string; label: string }[]; onSubmit: (v: FeeFormValues) => void; pending: boolean; error: string | null }) {
  const { t } = useTranslation('costs');
  const form = useFeeForm('EUR');
  return (
    <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }} component="form" noValidate onSubmit={form.onSubmit((v) => onSubmit(v))} data-testid={`${kind}-fee-form`}>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <Select label={t(kind === 'agent' ? 'form.office' : 'form.cabinet')} data={options} searchable withAsterisk {...form.getInputProps('key')} data-testid={`${kind}-fee-key`} />
          <NumberInput label={t('form.amountLabel')} min={0} decimalScale={2} withAsterisk {...form.getInputProps('amount')} data-testid={`${kind}-fee-amount`} />
          <TextInput label={t('form.currencyLabel')} maxLength={3} withAsterisk {...form.getInputProps('currency')} onChange={(e) => form.setFieldValue('currency', e.currentTarget.value.toUpperCase())} data-testid={`${kind}-fee-currency`} />
          {kind === 'service' && <NumberInput label={t('form.margin')} description={t('form.marginHelp')} min={0} max={100} decimalScale={2} {...form.getInputProps('margin')} data-testid="service-fee-margin" />}
          <TextInput label={t('form.from')} placeholder={t('form.dayPlaceholder')} withAsterisk {...form.getInputProps('valid_from')} data-testid={`${kind}-fee-from`} />
          <TextInput label={t('form.untilLabel')} placeholder={t('form.dayPlaceholder')} {...form.getInputProps('valid_until')} data-testid={`${kind}-fee-until`} />
          <TextInput label={t('form.note')} maxLength={200} {...form.getInputProps('note')} />
        </SimpleGrid>
        {error && (
          <Alert color="red" role="alert" data-testid={`${kind}-fee-error`}>
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={pending} data-testid={`${kind}-fee-submit`}>
            {t('form.add')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function validity(from: string, until: string | null, t: (k: string, o?: Record<string, unknown>) => string): string {
  return until ? t('validBetween', { from: formatDate(from), until: formatDate(until) }) : t('validFrom', { from: formatDate(from) });
}

function AgentFeesSection({ data }: { data: CostTablesResponse }) {
  const { t } = useTranslation('costs');
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: costTablesKey });
  const add = useMutation({ mutationFn: addAgentFee, onSuccess: () => (setError(null), refresh()), onError: (e) => setError(errorText(e, t('errors.generic'))) });
  const remove = useMutation({ mutationFn: deleteAgentFee, onSuccess: refresh, onError: (e) => setError(errorText(e, t('errors.generic'))) });
  return (
    <Stack gap="md" component="section" aria-labelledby="costs-agent-title">
      <Title order={2} size="h3" id="costs-agent-title">
        {t('agent.title')}
      </Title>
      <Text size="sm">{t('agent.help')}</Text>
      <FeeTable
        testId="agent-fees"
        caption={t('agent.title')}
        rows={data.agent_fees.map((f) => ({ id: f._id, who: f.office, amount: formatMoney(f.amount, f.currency), extra: null, validity: validity(f.valid_from, f.valid_until, t), note: f.note }))}
        onDelete={(id) => remove.mutate(id)}
        whoLabel={t('form.office')}
      />
      <FeeForm
        kind="agent"
        options={COST_OFFICES.map((o) => ({ value: o, label: o }))}
        pending={add.isPending}
        error={error}
        onSubmit={(v) => add.mutate({ office: v.key, amount: Number(v.amount), currency: v.currency, valid_from: v.valid_from, valid_until: v.valid_until || null, note: v.note || null })}
      />
    </Stack>
  );
}

function ServiceFeesSection({ data }: { data: CostTablesResponse }) {
  const { t } = useTranslation('costs');
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: costTablesKey });
  const add = useMutation({ mutationFn: addServiceFee, onSuccess: () => (setError(null), refresh()), onError: (e) => setError(errorText(e, t('errors.generic'))) });
  const remove = useMutation({ mutationFn: deleteServiceFee, onSuccess: refresh, onError: (e) => setError(errorText(e, t('errors.generic'))) });
  return (
    <Stack gap="md" component="section" aria-labelledby="costs-service-title">
      <Title order={2} size="h3" id="costs-service-title">
        {t('service.title')}
      </Title>
      <Text size="sm">{t('service.help')}</Text>
      <FeeTable
        testId="service-fees"
        caption={t('service.title')}
        rows={data.service_fees.map((f) => ({
          id: f._id,
          who: f.cabinet.name,
          amount: formatMoney(f.amount, f.currency),
          extra: f.margin_percent === null ? null : t('service.margin', { percent: formatNumber(f.margin_percent) }),
          validity: validity(f.valid_from, f.valid_until, t),
          note: f.note,
        }))}
        onDelete={(id) => remove.mutate(id)}
        whoLabel={t('form.cabinet')}
      />
      <FeeForm
        kind="service"
        options={data.cabinets.map((c) => ({ value: c._id, label: c.name }))}
        pending={add.isPending}
        error={error}
        onSubmit={(v) =>
          add.mutate({ cabinet_id: v.key, amount: Number(v.amount), currency: v.currency, margin_percent: v.margin === '' ? null : Number(v.margin), valid_from: v.valid_from, valid_until: v.valid_until || null, note: v.note || null })
        }
      />
    </Stack>
  );
}

interface FeeRow {
  id: string;
  who: string;
  amount: string;
  extra: string | null;
  validity: string;
  note: string | null;
}

function FeeTable({ rows, caption, testId, whoLabel, onDelete }: { rows: FeeRow[]; caption: string; testId: string; whoLabel: string; onDelete: (id: string) => void }) {
  const { t } = useTranslation('costs');
  return (
    <div tabIndex={0} role="region" aria-label={caption} style={{ overflowX: 'auto', minWidth: 0, maxWidth: '100%', position: 'relative' }}>
      <Table verticalSpacing={4} fz="sm" miw={520} data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{whoLabel}</Table.Th>
            <Table.Th>{t('columns.amount')}</Table.Th>
            <Table.Th>{t('columns.validity')}</Table.Th>
            <Table.Th>{t('columns.note')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('columns.actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={5}>{t('emptyRows')}</Table.Td>
            </Table.Tr>
          )}
          {rows.map((r) => (
            <Table.Tr key={r.id}>
              <Table.Td>{r.who}</Table.Td>
              <Table.Td>
                {r.amount}
                {r.extra && (
                  <Text span size="xs" display="block">
                    {r.extra}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{r.validity}</Table.Td>
              <Table.Td>{r.note}</Table.Td>
              <Table.Td>
                <Button variant="subtle" color="red.9" c="red.9" size="compact-sm" leftSection={<IconTrash size={14} aria-hidden="true" />} onClick={() => onDelete(r.id)} aria-label={t('delete', { who: r.who })}>
                  {t('deleteShort')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}

function OfficialTablesSection({ data }: { data: CostTablesResponse }) {
  const { t } = useTranslation('costs');
  return (
    <Stack gap="md" component="section" aria-labelledby="costs-official-title">
      <Title order={2} size="h3" id="costs-official-title">
        {t('official.title')}
      </Title>
      <Text size="sm">{t('official.help')}</Text>
      <div tabIndex={0} role="region" aria-label={t('official.title')} style={{ overflowX: 'auto', minWidth: 0, maxWidth: '100%', position: 'relative' }}>
        <Table verticalSpacing={4} fz="sm" miw={640} data-testid="official-tables">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('official.columns.table')}</Table.Th>
              <Table.Th>{t('columns.validity')}</Table.Th>
              <Table.Th>{t('official.columns.verified')}</Table.Th>
              <Table.Th>{t('official.columns.checked')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.fee_tables.map((f) => (
              <Table.Tr key={f.id}>
                <Table.Td>
                  {f.id}
                  <Text span size="xs" display="block">
                    {f.currency}
                  </Text>
                </Table.Td>
                <Table.Td>{validity(f.valid_from, f.valid_until, t)}</Table.Td>
                <Table.Td>
                  <Badge variant="light" color={f.verified ? 'green' : 'gray'} c={f.verified ? 'green.9' : 'dark.6'} tt="none">
                    {t(f.verified ? 'official.verified' : 'official.unverified')}
                  </Badge>
                </Table.Td>
                <Table.Td>{f.checked_on ? t('official.checkedOn', { date: formatDate(f.checked_on) }) : ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
    </Stack>
  );
}
