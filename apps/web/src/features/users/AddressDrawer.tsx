import { useEffect } from 'react';
import { Autocomplete, Button, Drawer, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { agentAddressBody, type AgentAddress, type NewAgentAddress } from '@portal/contracts';
import { ApiError } from '../../lib/api.ts';
import { useSchemaForm } from '../../lib/form.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { FormErrorSummary } from '../../components/FormErrorSummary.tsx';
import { msg } from '../../lib/message.tsx';
import { failureReason } from './reasons.ts';
import { createAddress } from './api.ts';

interface AddressValues extends Record<string, unknown> {
  id_client: string;
  destinataire_libelle: string;
  ligne01_libelle: string;
  ligne02_libelle: string;
  ville_libelle: string;
  pays_code: string;
  code_postal: string;
  devise: string;
}
type Field = keyof AddressValues & string;

const EMPTY: AddressValues = {
  id_client: '',
  destinataire_libelle: '',
  ligne01_libelle: '',
  ligne02_libelle: '',
  ville_libelle: '',
  pays_code: '',
  code_postal: '',
  devise: '',
};

/** Error code of a field → key of `address`: the two coded fields say which format they want. */
function addressErrorKey(code: string, field: string): string {
  if (code === 'required') return 'address.required';
  if (field === 'pays_code') return 'address.countryFormat';
  if (field === 'devise') return 'address.currencyFormat';
  return 'address.invalidField';
}

interface Props {
  opened: boolean;
  onClose: () => void;
  clientIds: string[];
  onCreated: (address: AgentAddress) => void;
}

/** Sliding panel to create the postal address of a ledes agent. */
export function AddressDrawer({ opened, onClose, clientIds, onCreated }: Props) {
  const { t } = useTranslation('users');
  const ids = clientIds.map((c) => c.trim()).filter(Boolean);

  const { form, onSubmit, showServerErrors, invalidCount, ref } = useSchemaForm<AddressValues, NewAgentAddress>({
    initialValues: EMPTY,
    schema: agentAddressBody,
    // Line 2 is the one optional field (spec): an empty one is not sent.
    prepare: ({ ligne02_libelle, ...rest }) => (ligne02_libelle.trim() ? { ...rest, ligne02_libelle } : rest),
    translate: (code, field) => t(addressErrorKey(code, field)),
  });

  useEffect(() => {
    if (opened && !form.getValues().id_client && ids[0]) form.setFieldValue('id_client', ids[0]);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the drawer opens
  }, [opened]);

  const mutation = useMutation({
    mutationFn: createAddress,
    onSuccess: (r) => {
      notifySuccess(msg('users:address.success'));
      onCreated(r.adresse);
      form.reset();
      onClose();
    },
    onError: (err) => {
      if (err instanceof ApiError) {
        // The server's field codes, shown under the fields of this form only.
        const known = Object.fromEntries(Object.entries(err.fields).filter(([field]) => field in EMPTY));
        showServerErrors(known);
      }
      notifyError(msg('users:address.failureReason', { reason: failureReason(err) }));
    },
  });

  const submit = onSubmit((body) => mutation.mutate(body));
  const input = (field: Exclude<Field, 'id_client'>, extra: { maxLength?: number; required?: boolean; description?: string } = {}) => (
    <TextInput
      name={field}
      label={t(`address.fields.${field}`)}
      required={extra.required ?? true}
      maxLength={extra.maxLength}
      description={extra.description}
      {...form.getInputProps(field)}
    />
  );

  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size="lg"
      title={<Text fw={650} size="lg">{t('address.title')}</Text>}
      padding="xl"
    >
      <form
        ref={ref}
        onSubmit={(e) => {
          // The drawer sits inside the add-user form in React's tree: its submit must not reach that form.
          e.stopPropagation();
          submit(e);
        }}
        noValidate
        data-testid="address-form"
      >
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {t('address.intro')}
          </Text>
          <FormErrorSummary count={invalidCount} testId="address-summary" />
          <Autocomplete name="id_client" label={t('address.fields.id_client')} required data={ids} {...form.getInputProps('id_client')} />
          {input('destinataire_libelle')}
          {input('ligne01_libelle')}
          {input('ligne02_libelle', { required: false })}
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            {input('code_postal')}
            {input('ville_libelle')}
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            {input('pays_code', { maxLength: 2, description: t('address.countryHint') })}
            {input('devise', { maxLength: 3, description: t('address.currencyHint') })}
          </SimpleGrid>
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              {t('address.cancel')}
            </Button>
            <Button type="submit" loading={mutation.isPending} data-testid="address-submit">
              {t('address.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Drawer>
  );
}
