import { useMemo } from 'react';
import { Button, Group, NumberInput, Paper, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PATENT_TEXT_MAX, patentCreateBody, type PatentCreateBody } from '@portal/contracts';
import { FormErrorSummary } from '../../components/FormErrorSummary.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ApiError } from '../../lib/api.ts';
import { useSchemaForm } from '../../lib/form.ts';
import { msg } from '../../lib/message.tsx';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { formatDate } from '../../lib/format.ts';
import { createPatent, instructionsQuery, proposalQuery } from './api.ts';
import { EMPTY_ADD_VALUES, instructionLabels, OFFICES, ORIGINS, toCreateBody, type AddValues } from './model.ts';

export const PORTFOLIO_PATH = '/patent-annuities';

const ERROR_KEYS = new Set(['country_required', 'invalid_date_format', 'invalid_application_number', 'invalid_publication_number', 'invalid_cost', 'formula_not_allowed', 'text_too_long']);
/** The longest text of each field (the contract's limits, issue 25 §3). */
const MAX_LENGTH: Record<string, number> = {
  numero_depot: PATENT_TEXT_MAX.number,
  numero_publication: PATENT_TEXT_MAX.number,
  reference_client: PATENT_TEXT_MAX.reference,
  reference_cabinet: PATENT_TEXT_MAX.reference,
  origine: PATENT_TEXT_MAX.origin,
};

/** Spec "Add patent form": submitted for an agent's review; back to the portfolio after adding or cancelling. */
export function AddPatentPage() {
  const { t, i18n } = useTranslation('patents');
  const navigate = useNavigate();
  const instructions = useQuery(instructionsQuery);
  const labels = useMemo(() => instructionLabels(instructions.data ?? [], i18n.language), [instructions.data, i18n.language]);
  const { form, onSubmit, setField, showServerErrors, invalidCount, errorOf, ref } = useSchemaForm<AddValues, PatentCreateBody>({
    initialValues: EMPTY_ADD_VALUES,
    schema: patentCreateBody,
    prepare: toCreateBody,
    translate: (code, path) => t(`add.errors.${ERROR_KEYS.has(code) ? code : 'invalid'}`, { count: MAX_LENGTH[path] }),
  });
  const create = useMutation({
    mutationFn: createPatent,
    onSuccess: async () => {
      notifySuccess(msg('patents:add.successTitle'), msg('patents:add.success'));
      await navigate(PORTFOLIO_PATH);
    },
    onError: (error) => {
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) showServerErrors(error.fields);
      notifyError(msg('patents:add.errorTitle'), msg('patents:add.error'));
    },
  });
  const values = form.getValues();
  const field = (name: keyof AddValues & string) => ({ label: t(`add.fields.${name}`), name, 'data-testid': `add-${name}`, ...form.getInputProps(name) });
  // The engine's next annuity for this office, origin and filing date: offered, never imposed.
  const proposal = useQuery({
    ...proposalQuery({ pays: values.pays, origine: values.origine, date_depot: values.date_depot }),
    enabled: values.pays !== '' && /^\d{4}-\d{2}-\d{2}$/.test(values.date_depot),
  });
  const proposed = proposal.data?.date_echeance_annuites ? proposal.data : null;
  const applyProposal = () => {
    if (!proposed) return;
    setField('date_echeance_annuites', proposed.date_echeance_annuites ?? '');
    setField('quantieme', proposed.quantieme ?? '');
    if (proposed.cout !== null) setField('cout', proposed.cout);
  };

  return (
    <Stack gap="md" maw={900} mx="auto" w="100%">
      <PageHeader title={t('add.title')} description={t('add.description')} />
      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }}>
        <form ref={ref} onSubmit={onSubmit((body) => create.mutate(body))} noValidate data-testid="add-patent-form">
          <Stack gap="md">
            <FormErrorSummary count={invalidCount} testId="add-summary" />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <TextInput {...field('numero_depot')} maxLength={PATENT_TEXT_MAX.number} autoComplete="off" />
              <TextInput {...field('numero_publication')} maxLength={PATENT_TEXT_MAX.number} autoComplete="off" />
              <TextInput {...field('reference_client')} maxLength={PATENT_TEXT_MAX.reference} autoComplete="off" />
              <TextInput {...field('reference_cabinet')} maxLength={PATENT_TEXT_MAX.reference} autoComplete="off" />
              <TextInput type="date" {...field('date_depot')} />
              <Stack gap={6}>
                <TextInput type="date" {...field('date_echeance_annuites')} />
                {proposed && (
                  <Group gap="xs" wrap="nowrap" align="flex-start" data-testid="add-proposal">
                    <Text size="sm" c="dimmed" aria-live="polite">
                      {proposed.cout === null
                        ? t('add.proposal', { date: formatDate(proposed.date_echeance_annuites), number: proposed.quantieme })
                        : t('add.proposalWithCost', { date: formatDate(proposed.date_echeance_annuites), number: proposed.quantieme, cost: proposed.cout.toLocaleString(i18n.language, { style: 'currency', currency: 'EUR' }) })}
                    </Text>
                    <Button variant="light" size="compact-sm" onClick={applyProposal} data-testid="add-use-proposal">
                      {t('add.useProposal')}
                    </Button>
                  </Group>
                )}
              </Stack>
              <Select
                label={t('add.fields.pays')}
                placeholder={t('add.choose')}
                required
                data={[...OFFICES]}
                value={values.pays || null}
                onChange={(v) => setField('pays', v ?? '')}
                error={errorOf('pays')}
                data-path="pays"
                data-testid="add-pays"
              />
              <Select
                label={t('add.fields.origine')}
                placeholder={t('add.choose')}
                data={ORIGINS.map((o) => ({ value: o, label: t(`add.origins.${o}`) }))}
                value={values.origine || null}
                onChange={(v) => setField('origine', v ?? '')}
                error={errorOf('origine')}
                data-path="origine"
                data-testid="add-origine"
              />
              <Select
                label={t('add.fields.instruction_paiement')}
                placeholder={t('add.choose')}
                data={labels.map((l) => ({ value: String(l.id), label: l.title }))}
                value={values.instruction_paiement || null}
                onChange={(v) => setField('instruction_paiement', v ?? '')}
                error={errorOf('instruction_paiement')}
                data-path="instruction_paiement"
                data-testid="add-instruction_paiement"
              />
              <NumberInput size="md" {...field('quantieme')} min={0} max={100} allowDecimal={false} allowNegative={false} />
              {/* Sign kept and no clamping: "-50" is refused with the contract's message, never read as 50 or 0 (issue 25 §3). */}
              <NumberInput size="md" {...field('cout')} decimalScale={2} clampBehavior="none" suffix=" €" />
            </SimpleGrid>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" component={Link} to={PORTFOLIO_PATH} data-testid="add-cancel">
                {t('add.cancel')}
              </Button>
              <Button type="submit" loading={create.isPending} data-testid="add-submit">
                {t('add.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
