import { useState } from 'react';
import { Alert, Button, Group, NumberInput, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { renewalCallSettingsBody, type RenewalCallSettingsDto } from '@portal/contracts';
import { ApiError } from '../../../lib/api.ts';
import { formatDay } from '../../../lib/format.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { Loader } from '../../../components/Loader.tsx';
import { LoadError } from '../../../components/LoadError.tsx';
import { callsKey, saveSettings, settingsQuery } from '../callsApi.ts';

type Field = 'window_days' | 'margin_days' | 'reminder_days';
type Values = Record<Field, number | string>;
const FIELDS: readonly Field[] = ['window_days', 'margin_days', 'reminder_days'];

/** The form's values checked by the API's own schema: each field's first problem, in words. */
function validate(values: Values, t: (key: string) => string): Partial<Record<Field, string>> {
  const parsed = renewalCallSettingsBody.safeParse(Object.fromEntries(FIELDS.map((f) => [f, values[f] === '' ? undefined : Number(values[f])])));
  if (parsed.success) return {};
  const errors: Partial<Record<Field, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as Field;
    if (errors[field]) continue;
    errors[field] = issue.message === 'renewal_call_margin_outside_window' ? t('settings.errors.margin') : t(`settings.errors.${field}`);
  }
  return errors;
}

function CabinetSettings({ settings: s }: { settings: RenewalCallSettingsDto }) {
  const { t } = useTranslation('calls');
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { window_days: s.window_days, margin_days: s.margin_days, reminder_days: s.reminder_days },
    validate: (values) => validate(values, t),
  });
  const save = useMutation({
    mutationFn: (v: Values) => saveSettings(s.cabinet_id, { window_days: Number(v.window_days), margin_days: Number(v.margin_days), reminder_days: Number(v.reminder_days) }),
    onSuccess: async (res) => {
      setError(null);
      form.resetDirty({ window_days: res.settings.window_days, margin_days: res.settings.margin_days, reminder_days: res.settings.reminder_days });
      notifySuccess(t('settings.saved', { cabinet: s.cabinet }));
      await queryClient.invalidateQueries({ queryKey: callsKey });
    },
    onError: (e) => setError(e instanceof ApiError && e.message ? e.message : t('errors.generic')),
  });
  const id = `call-settings-${s.cabinet_id}`;
  return (
    <Paper withBorder p="md" radius="md" component="form" noValidate onSubmit={form.onSubmit((v) => save.mutate(v))} aria-labelledby={`${id}-title`} data-testid="call-settings-cabinet">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Title order={3} size="h5" id={`${id}-title`} className="portal-break">
            {s.cabinet}
          </Title>
          <Text size="xs" c="dark.4" data-testid="call-settings-state">
            {s.saved && s.updated_at ? t('settings.savedBy', { day: formatDay(s.updated_at.slice(0, 10)), who: s.updated_by ?? '—' }) : t('settings.defaults')}
          </Text>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          {FIELDS.map((f) => (
            <NumberInput key={f} label={t(`settings.${f}`)} description={t(`settings.${f}Help`)} min={0} max={366} allowDecimal={false} withAsterisk {...form.getInputProps(f)} data-testid={`call-settings-${f}`} />
          ))}
        </SimpleGrid>
        {error && (
          <Alert color="red" role="alert" data-testid="call-settings-error">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" variant="light" loading={save.isPending} disabled={!form.isDirty()} data-testid="call-settings-save">
            {t('settings.save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** Each firm's window, "instruct before" margin and reminder (days): the defaults until staff save them; the next run uses them. */
export function CallSettings() {
  const { t } = useTranslation('calls');
  const settings = useQuery(settingsQuery);
  // Folded by default: changed now and then, while the calls above are read every day (a group's dozens of firms made
  // the desk a long page of forms).
  const [open, setOpen] = useState(false);
  const count = settings.data?.settings.length ?? 0;
  return (
    <Stack gap="sm" component="section" aria-labelledby="call-settings-title" data-testid="call-settings">
      <Title order={2} size="h3" id="call-settings-title">
        {t('settings.title')}
      </Title>
      <Text size="sm">{t('settings.help')}</Text>
      {settings.isPending && <Loader loading />}
      {settings.isError && <LoadError message={t('settings.loadError')} retryLabel={t('retry')} onRetry={() => void settings.refetch().catch(() => undefined)} testId="call-settings-load-error" />}
      {settings.isSuccess && count > 0 && (
        <Group>
          <Button variant="default" onClick={() => setOpen((o) => !o)} aria-expanded={open} aria-controls="call-settings-list" data-testid="call-settings-toggle">
            {open ? t('settings.hide') : t('settings.show', { count })}
          </Button>
        </Group>
      )}
      {open && (
        <Stack gap="sm" id="call-settings-list">
          {settings.data?.settings.map((s) => <CabinetSettings key={`${s.cabinet_id}-${s.updated_at ?? ''}`} settings={s} />)}
        </Stack>
      )}
    </Stack>
  );
}
