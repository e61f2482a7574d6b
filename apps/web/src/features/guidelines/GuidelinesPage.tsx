import { useState } from 'react';
import { Alert, Button, Group, NumberInput, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconEye, IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { guidelineVersionBody, type GuidelinePreviewResponse } from '@portal/contracts';
import { ApiError } from '../../lib/api.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { clientsQuery, guidelineKeys, previewSet, saveVersion, versionsQuery } from './api.ts';
import { fromRule, RuleRow, toRule, type RuleDraft } from './components/RuleRow.tsx';
import { PreviewResults } from './components/PreviewResults.tsx';
import { VersionHistory } from './components/VersionHistory.tsx';

const NEW_RULE: RuleDraft = { kind: 'max_rate', ref: '', severity: 'error' };

/** Issue 31 §1: an admin keeps each client's billing guidelines, one version per effective date, and previews a set. */
export function GuidelinesPage() {
  const { t } = useTranslation('guidelines');
  const queryClient = useQueryClient();
  const [clientInput, setClientInput] = useState('');
  const [idClient, setIdClient] = useState('');
  const [effectiveFrom, setEffectiveFrom] = useState('');
  const [note, setNote] = useState('');
  const [rules, setRules] = useState<RuleDraft[]>([{ ...NEW_RULE }]);
  const [errors, setErrors] = useState<{ form?: string; rules: Record<number, string> }>({ rules: {} });
  const [last, setLast] = useState(10);
  const [preview, setPreview] = useState<GuidelinePreviewResponse | null>(null);
  const clients = useQuery(clientsQuery());
  const versions = useQuery(versionsQuery(idClient));

  /** Checks the draft with the API's own schema: the errors by rule, before any request. */
  const validated = (requireDate: boolean) => {
    const body = { effective_from: requireDate ? effectiveFrom : '2000-01-01', rules: rules.map(toRule), ...(note.trim() ? { note: note.trim() } : {}) };
    const parsed = guidelineVersionBody.safeParse(body);
    if (parsed.success) {
      setErrors({ rules: {} });
      return parsed.data;
    }
    const byRule: Record<number, string> = {};
    let form: string | undefined;
    for (const issue of parsed.error.issues) {
      const [head, index] = issue.path;
      if (head === 'rules' && typeof index === 'number') byRule[index] ??= t('errors.rule');
      else if (head === 'rules') form = t('errors.noRules');
      else if (head === 'effective_from') form = t('errors.date');
      else form = t('errors.invalid');
    }
    setErrors({ form, rules: byRule });
    return null;
  };

  const apiMessage = (error: unknown) => (error instanceof ApiError && !error.isServerError ? error.message : t('errors.server'));
  const save = useMutation({
    mutationFn: (body: NonNullable<ReturnType<typeof validated>>) => saveVersion(idClient, body),
    onSuccess: async () => {
      setErrors({ rules: {} });
      await Promise.all([queryClient.invalidateQueries({ queryKey: guidelineKeys.versions(idClient) }), queryClient.invalidateQueries({ queryKey: guidelineKeys.clients() })]);
    },
    onError: (error) => setErrors({ form: apiMessage(error), rules: {} }),
  });
  const runPreview = useMutation({
    mutationFn: (body: NonNullable<ReturnType<typeof validated>>) => previewSet(idClient, body.rules, last),
    onSuccess: setPreview,
    onError: (error) => setErrors({ form: apiMessage(error), rules: {} }),
  });

  const open = (value: string) => {
    const id = value.trim();
    setIdClient(id);
    setPreview(null);
    save.reset();
  };

  return (
    <Stack gap="lg">
      <PageHeader title={t('title')} description={t('description')} />
      <Paper withBorder p="md">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput label={t('client.label')} value={clientInput} onChange={(e) => setClientInput(e.currentTarget.value)} data-testid="guideline-client" w={{ base: '100%', sm: 240 }} />
          <Button onClick={() => open(clientInput)} disabled={clientInput.trim() === ''} data-testid="guideline-open">
            {t('client.open')}
          </Button>
          {(clients.data?.length ?? 0) > 0 && (
            <Select
              label={t('client.existing')}
              placeholder={t('client.choose')}
              data={clients.data!.map((c) => ({ value: c.id_client, label: t('client.option', { id: c.id_client, count: c.versions }) }))}
              onChange={(v) => v && (setClientInput(v), open(v))}
              w={{ base: '100%', sm: 280 }}
            />
          )}
        </Group>
        {clients.isSuccess && clients.data.length === 0 && idClient === '' && (
          <Text size="sm" c="dimmed" mt="sm" data-testid="guideline-clients-none">
            {t('client.none')}
          </Text>
        )}
      </Paper>

      {idClient !== '' && (
        <>
          <Title order={2} size="h3">
            {t('history.title', { id: idClient })}
          </Title>
          <VersionHistory
            versions={versions.data ?? []}
            onCopy={(v) => {
              setRules(v.rules.map((r) => fromRule(r as Record<string, unknown>)));
              setNote('');
            }}
          />

          <Title order={2} size="h3">
            {t('editor.title')}
          </Title>
          <Group align="flex-end" gap="sm" wrap="wrap">
            <TextInput type="date" label={t('editor.from')} value={effectiveFrom} onChange={(e) => setEffectiveFrom(e.currentTarget.value)} data-testid="guideline-from" required />
            <TextInput label={t('editor.note')} value={note} onChange={(e) => setNote(e.currentTarget.value)} w={{ base: '100%', sm: 320 }} />
          </Group>
          <Stack gap="xs">
            {rules.map((rule, i) => (
              <RuleRow
                key={i}
                index={i}
                rule={rule}
                error={errors.rules[i]}
                onChange={(r) => setRules(rules.map((x, j) => (j === i ? r : x)))}
                onRemove={() => setRules(rules.filter((_, j) => j !== i))}
              />
            ))}
          </Stack>
          {errors.form && (
            <Alert color="red" data-testid="guideline-error">
              {errors.form}
            </Alert>
          )}
          {save.isSuccess && (
            <Alert color="green" data-testid="guideline-saved">
              {t('editor.saved', { version: save.data.version })}
            </Alert>
          )}
          <Group gap="sm" wrap="wrap">
            <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setRules([...rules, { ...NEW_RULE }])}>
              {t('editor.add')}
            </Button>
            <Button
              loading={save.isPending}
              data-testid="guideline-save"
              onClick={() => {
                const body = validated(true);
                if (body) save.mutate(body);
              }}
            >
              {t('editor.save')}
            </Button>
          </Group>

          <Title order={2} size="h3">
            {t('preview.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('preview.help')}
          </Text>
          <Group align="flex-end" gap="sm">
            <NumberInput label={t('preview.last')} value={last} min={1} max={50} allowDecimal={false} onChange={(v) => setLast(typeof v === 'number' ? v : 10)} w={160} />
            <Button
              variant="outline"
              leftSection={<IconEye size={16} />}
              loading={runPreview.isPending}
              data-testid="guideline-preview-run-button"
              onClick={() => {
                const body = validated(false);
                if (body) runPreview.mutate(body);
              }}
            >
              {t('preview.run')}
            </Button>
          </Group>
          {preview && <PreviewResults runs={preview.runs} unchecked={preview.unchecked} budgetSeconds={preview.budget_seconds} />}
        </>
      )}
    </Stack>
  );
}
