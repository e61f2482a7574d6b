import { useEffect, useState, type FormEvent } from 'react';
import { Autocomplete, Button, Drawer, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AgentAddress, AgentAddressBody } from '@portal/contracts';
import { ApiError } from '../../lib/api.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { createAddress } from './api.ts';

const EMPTY: AgentAddressBody = {
  id_client: '',
  destinataire_libelle: '',
  ligne01_libelle: '',
  ligne02_libelle: '',
  ville_libelle: '',
  pays_code: '',
  code_postal: '',
  devise: '',
};
type Field = keyof AgentAddressBody;

interface Props {
  opened: boolean;
  onClose: () => void;
  clientIds: string[];
  onCreated: (address: AgentAddress) => void;
}

/** Sliding panel to create the postal address of a ledes agent. */
export function AddressDrawer({ opened, onClose, clientIds, onCreated }: Props) {
  const { t } = useTranslation('users');
  const [values, setValues] = useState<AgentAddressBody>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const ids = clientIds.map((c) => c.trim()).filter(Boolean);

  useEffect(() => {
    if (opened && !values.id_client && ids[0]) setValues((v) => ({ ...v, id_client: ids[0] ?? '' }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened]);

  const set = (field: Field) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const mutation = useMutation({
    mutationFn: createAddress,
    onSuccess: (r) => {
      notifySuccess(t('address.success'));
      onCreated(r.adresse);
      setValues(EMPTY);
      onClose();
    },
    onError: (err) => {
      const message = err instanceof ApiError ? err.message || t('address.serverError') : err.message;
      if (err instanceof ApiError) {
        const next: Partial<Record<Field, string>> = {};
        for (const field of Object.keys(err.fields)) if (field in EMPTY) next[field as Field] = t('address.invalidField');
        setErrors(next);
      }
      notifyError(t('address.failure') + message);
    },
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    e.stopPropagation();
    const next: Partial<Record<Field, string>> = {};
    for (const field of Object.keys(EMPTY) as Field[]) {
      if (field !== 'ligne02_libelle' && !values[field]?.trim()) next[field] = t('address.required');
    }
    if (values.pays_code.trim() && !/^[A-Za-z]{2}$/.test(values.pays_code.trim())) next.pays_code = t('address.countryFormat');
    if (values.devise.trim() && !/^[A-Za-z]{3}$/.test(values.devise.trim())) next.devise = t('address.currencyFormat');
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    const body: AgentAddressBody = {
      ...values,
      pays_code: values.pays_code.trim().toUpperCase(),
      devise: values.devise.trim().toUpperCase(),
    };
    if (!body.ligne02_libelle?.trim()) delete body.ligne02_libelle;
    mutation.mutate(body);
  };

  const input = (field: Exclude<Field, 'id_client'>, extra: { maxLength?: number; required?: boolean; description?: string } = {}) => (
    <TextInput
      name={field}
      label={t(`address.fields.${field}`)}
      required={extra.required ?? true}
      maxLength={extra.maxLength}
      description={extra.description}
      value={values[field] ?? ''}
      onChange={(e) => set(field)(e.currentTarget.value)}
      error={errors[field]}
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
      <form onSubmit={onSubmit} noValidate data-testid="address-form">
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {t('address.intro')}
          </Text>
          <Autocomplete
            name="id_client"
            label={t('address.fields.id_client')}
            required
            data={ids}
            value={values.id_client}
            onChange={set('id_client')}
            error={errors.id_client}
          />
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
