import { Badge, Button, Group, Modal, NumberInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLastNonNull } from '../../lib/useLastNonNull.ts';
import { annuityPatentEditBody, type AnnuityPatentDto } from '@portal/contracts';
import { FormErrorSummary } from '../../components/FormErrorSummary.tsx';
import { ApiError } from '../../lib/api.ts';
import { useSchemaForm } from '../../lib/form.ts';
import { msg, translated } from '../../lib/message.tsx';
import { notifySuccess, toastTiming } from '../../lib/notify.ts';
import { ColourBadge } from './ColourBadge.tsx';
import { applyPatentEdit, savePatent, type PatentEdit } from './patentsApi.ts';
import { dayOrNull, formatDay, patentLabel, quantPrecedentError } from './patentsModel.ts';
import classes from './patents.module.css';

const FIELDS = ['date_precedente_annuite', 'date_prochaine_annuite', 'quant_precedent', 'limite_date_prochaine_annuite'] as const;
type Field = (typeof FIELDS)[number];
interface Values extends Record<string, unknown> {
  date_precedente_annuite: string;
  date_prochaine_annuite: string;
  quant_precedent: string | number;
  limite_date_prochaine_annuite: string;
}

/** The form's values as the API's body: '' clears a field (null). */
function toBody(v: Values): PatentEdit {
  const quant = v.quant_precedent === '' ? null : Number(v.quant_precedent);
  return {
    date_precedente_annuite: dayOrNull(v.date_precedente_annuite),
    date_prochaine_annuite: dayOrNull(v.date_prochaine_annuite),
    quant_precedent: quant,
    limite_date_prochaine_annuite: dayOrNull(v.limite_date_prochaine_annuite),
  };
}

/** The message key of an error code on a field (the schema's codes and the API's). */
function errorKey(code: string, field: string): string {
  if (code === 'next_before_previous') return 'annuities:edit.errors.next_before_previous';
  if (field === 'quant_precedent') return 'annuities:edit.errors.quant_range'; // also the server's annuity_number_out_of_range
  if (field === 'limite_date_prochaine_annuite' && code === 'validation_failed') return 'annuities:edit.errors.limit_before_next';
  return 'annuities:edit.errors.invalid_date';
}

function notifyFailure(): void {
  notifications.show({
    title: translated(msg('annuities:edit.failure')),
    message: '',
    color: 'red',
    withBorder: true,
    icon: <IconAlertCircle size={20} aria-hidden="true" />,
    ...toastTiming.error,
  });
}

function ReadOnly({ patent }: { patent: AnnuityPatentDto }) {
  const { t } = useTranslation('annuities');
  const items: [string, React.ReactNode][] = [
    [t('patents.columns.colour'), <ColourBadge key="c" colour={patent.colour} ledger={patent.ledger?.state} />],
    [t('patents.columns.num_publication'), patent.num_publication],
    [t('patents.columns.num_depot'), patent.num_depot],
    [t('patents.columns.reference'), patent.reference],
    [t('patents.columns.nom'), patent.nom],
    [t('patents.columns.pays'), patent.pays],
    [t('patents.columns.payeur'), patent.payeur],
    [
      t('patents.columns.publie'),
      patent.dechu ? (
        <Badge key="l" color="red" variant="outline" radius="sm" size="sm" tt="none">
          {t('patents.lapsed')}
        </Badge>
      ) : (
        patent.publié
      ),
    ],
    [t('patents.columns.date_depot'), formatDay(patent.date_depot)],
    [t('patents.columns.mois_date_depot'), patent.mois_date_depot],
    [t('patents.columns.commentaire'), patent.commentaire],
  ];
  return (
    <dl className={classes.readonly} data-testid="edit-readonly">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value === null || value === '' || value === undefined ? t('edit.empty') : value}</dd>
        </div>
      ))}
    </dl>
  );
}

function EditForm({ patent, onClose, phone }: { patent: AnnuityPatentDto; onClose: () => void; phone: boolean }) {
  const { t } = useTranslation('annuities');
  const client = useQueryClient();
  const { form, onSubmit, showServerErrors, invalidCount, ref } = useSchemaForm<Values, PatentEdit>({
    initialValues: {
      date_precedente_annuite: patent.date_precedente_annuite ?? '',
      date_prochaine_annuite: patent.date_prochaine_annuite ?? '',
      quant_precedent: patent.quant_precedent ?? '',
      limite_date_prochaine_annuite: patent.limite_date_prochaine_annuite ?? '',
    },
    schema: annuityPatentEditBody,
    prepare: toBody,
    // The range depends on the patent's office: the server sends it with the patent.
    extraRules: (v) => ({ quant_precedent: quantPrecedentError(v.quant_precedent, patent.quant_range) }),
    translate: (code, field) => t(errorKey(code, field), { min: patent.quant_range.first, max: patent.quant_range.last }),
  });

  const mutation = useMutation({
    mutationFn: (body: PatentEdit) => savePatent(patent._id, body),
    onSuccess: async (saved) => {
      await applyPatentEdit(client, saved, patent.colour);
      notifySuccess(msg('annuities:edit.success'));
      onClose();
    },
    onError: (err) => {
      if (err instanceof ApiError && err.code === 'next_before_previous') showServerErrors({ date_prochaine_annuite: 'next_before_previous' });
      else if (err instanceof ApiError && err.status === 400) showServerErrors(Object.fromEntries(Object.entries(err.fields).filter(([f]) => (FIELDS as readonly string[]).includes(f))));
      notifyFailure();
    },
  });

  // The browser draws a date input in its own locale's order: the value is also written under it in the page's language.
  const dateInput = (field: Exclude<Field, 'quant_precedent'>) => (
    <TextInput
      type="date"
      name={field}
      label={t(`edit.fields.${field}`)}
      description={formatDay(form.getValues()[field]) || undefined}
      data-testid={`edit-${field}`}
      {...form.getInputProps(field)}
    />
  );

  return (
    <form ref={ref} onSubmit={onSubmit((body) => mutation.mutate(body))} noValidate data-testid="edit-form">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xl">
        <Stack gap={4}>
          <Title order={3} size="h5">
            {t('edit.details')}
          </Title>
          <ReadOnly patent={patent} />
        </Stack>
        {/* On a phone the fields to edit come first; the details follow. */}
        <Stack gap="sm" style={phone ? { order: -1 } : undefined}>
          <Title order={3} size="h5">
            {t('edit.annuities')}
          </Title>
          <FormErrorSummary count={invalidCount} testId="edit-summary" />
          {dateInput('date_precedente_annuite')}
          {dateInput('date_prochaine_annuite')}
          <NumberInput
            name="quant_precedent"
            label={t('edit.fields.quant_precedent')}
            min={patent.quant_range.first}
            max={patent.quant_range.last}
            allowDecimal={false}
            allowNegative={false}
            data-testid="edit-quant_precedent"
            {...form.getInputProps('quant_precedent')}
          />
          {dateInput('limite_date_prochaine_annuite')}
          <Group justify="flex-end" mt="md">
            <Button variant="default" onClick={onClose}>
              {t('edit.cancel')}
            </Button>
            <Button type="submit" loading={mutation.isPending} data-testid="edit-confirm">
              {t('edit.confirm')}
            </Button>
          </Group>
        </Stack>
      </SimpleGrid>
    </form>
  );
}

/** The edit patent modal (spec "Edit patent modal"): read-only fields on the left, the four editable ones on the right. */
export function EditPatentModal({ patent: opened, fileName, onClose }: { patent: AnnuityPatentDto | null; fileName?: string | undefined; onClose: () => void }) {
  const { t } = useTranslation('annuities');
  const phone = useMediaQuery('(max-width: 40em)');
  // While closing, the modal still shows the patent it had.
  const patent = useLastNonNull(opened);
  return (
    <Modal
      opened={opened !== null}
      onClose={onClose}
      title={patent ? t('edit.title', { name: patentLabel(patent) }) : ''}
      size="xl"
      fullScreen={phone}
      radius={phone ? 0 : 'lg'}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)', overflowWrap: 'anywhere' } }}
      closeButtonProps={{ 'aria-label': t('edit.cancel') }}
      data-testid="edit-modal"
    >
      {fileName && (
        <Text size="sm" c="dimmed" mb="sm" style={{ overflowWrap: 'anywhere' }}>
          {fileName}
        </Text>
      )}
      {patent && <EditForm key={patent._id} patent={patent} onClose={onClose} phone={!!phone} />}
    </Modal>
  );
}
