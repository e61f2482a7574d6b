import { useState } from 'react';
import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Checkbox,
  Divider,
  Group,
  Paper,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconHelp, IconMapPin, IconUsers } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { createUserBody, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, type AgentAddress, type Language, type NewUser } from '@portal/contracts';
import { ApiError } from '../../lib/api.ts';
import { useSchemaForm } from '../../lib/form.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { msg } from '../../lib/message.tsx';
import { failureReason } from './reasons.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { InfoModal } from '../../components/InfoModal.tsx';
import { FormErrorSummary } from '../../components/FormErrorSummary.tsx';
import { AddressDrawer } from './AddressDrawer.tsx';
import { RepeatableList } from './RepeatableList.tsx';
import { cabinetsQuery, createUser, rolesQuery, sendFirstConnection } from './api.ts';

interface UserValues extends Record<string, unknown> {
  company_agent: string;
  email: string;
  password: string;
  roles: string[];
  langue: Language;
  id_client: string[];
  cabinets: string[];
  code: string[];
}

const INITIAL: UserValues = { company_agent: '', email: '', password: '', roles: [], langue: 'en', id_client: [''], cabinets: [], code: [''] };

/** Error code → key of `add.errors`, per field where the same code reads differently. */
const CODE_KEYS: Record<string, string> = {
  email_empty: 'emailEmpty',
  wrong_email: 'emailInvalid',
  password_empty: 'passwordEmpty',
  password_too_short: 'passwordTooShort',
  password_too_long: 'passwordTooLong',
  role_required: 'roleRequired',
  cabinet_required: 'cabinetRequired',
};
function errorKey(code: string, field: string): string {
  if (CODE_KEYS[code]) return CODE_KEYS[code];
  if (code === 'required') {
    if (field === 'company_agent') return 'companyEmpty';
    if (field.startsWith('id_client')) return 'clientIdEmpty';
    if (field.startsWith('code')) return 'codeEmpty';
    if (field === 'email') return 'emailEmpty';
    if (field === 'password') return 'passwordEmpty';
    if (field === 'roles') return 'roleRequired';
  }
  return 'invalid';
}

export function AddUserPage() {
  const { t } = useTranslation('users');
  const queryClient = useQueryClient();
  const roles = useQuery(rolesQuery);
  const cabinets = useQuery(cabinetsQuery);
  const [address, setAddress] = useState<AgentAddress | null>(null);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);

  const slugOf = (v: UserValues) => roles.data?.find((r) => r._id === v.roles[0])?.slug;
  const { form, onSubmit, setField, showServerErrors, invalidCount, errorOf, ref } = useSchemaForm<UserValues, NewUser>({
    initialValues: INITIAL,
    schema: createUserBody,
    // Role-specific lists go only with their role (spec: a ledes agent has client ids, an annuities agent cabinets and codes).
    prepare: (v) => {
      const slug = slugOf(v);
      return {
        ...v,
        id_client: slug === 'user_agent_ledes' ? v.id_client : [],
        cabinets: slug === 'user_agent_annuites' ? v.cabinets : [],
        code: slug === 'user_agent_annuites' ? v.code : [],
      };
    },
    extraRules: (v) => ({ cabinets: slugOf(v) === 'user_agent_annuites' && v.cabinets.length === 0 ? 'cabinet_required' : undefined }),
    translate: (code, field) => t(`add.errors.${errorKey(code, field)}`, { count: PASSWORD_MIN_LENGTH }),
  });
  const values = form.getValues();
  const roleSlug = slugOf(values);
  const isLedesAgent = roleSlug === 'user_agent_ledes';
  const isAnnuitiesAgent = roleSlug === 'user_agent_annuites';

  const mutation = useMutation({
    mutationFn: async (body: NewUser) => {
      const created = await createUser(body);
      // The new user gets a set-your-password e-mail.
      const mailSent = await sendFirstConnection(body.email).then(
        () => true,
        () => false,
      );
      return { created, mailSent };
    },
    onSuccess: ({ mailSent }) => {
      notifySuccess(msg('users:add.success'));
      if (!mailSent) notifyError(msg('users:add.mailFailed'));
      queryClient.invalidateQueries({ queryKey: queryKeys.users.all() });
      form.reset();
      setAddress(null);
    },
    onError: (err) => {
      if (err instanceof ApiError) showServerErrors(err.fields);
      notifyError(msg('users:add.failureReason', { reason: failureReason(err) }));
    },
  });

  return (
    <Stack gap="lg" maw={860} mx="auto">
      <PageHeader
        title={t('add.title')}
        description={t('add.description')}
        actions={
          <Group gap="xs">
            <ActionIcon variant="default" size={36} aria-label={t('add.help.open')} onClick={() => setHelpOpen(true)} data-testid="add-user-help">
              <IconHelp size={18} aria-hidden="true" />
            </ActionIcon>
            <Button component={Link} to="/admin/user" variant="default" leftSection={<IconUsers size={16} aria-hidden="true" />}>
              {t('add.toList')}
            </Button>
          </Group>
        }
      />
      <Paper withBorder shadow="xs" p={{ base: 'lg', sm: 'xl' }}>
        <form ref={ref} onSubmit={onSubmit((body) => mutation.mutate(body))} noValidate data-testid="add-user-form">
          <Stack gap="md">
            <FormErrorSummary count={invalidCount} testId="add-user-summary" />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <TextInput name="company_agent" label={t('add.fields.company')} required {...form.getInputProps('company_agent')} />
              <TextInput name="email" type="email" label={t('add.fields.email')} autoComplete="off" required {...form.getInputProps('email')} />
              <PasswordInput
                name="password"
                label={t('add.fields.password')}
                description={t('add.fields.passwordHint', { min: PASSWORD_MIN_LENGTH, count: PASSWORD_MAX_LENGTH })}
                autoComplete="new-password"
                required
                maxLength={PASSWORD_MAX_LENGTH}
                {...form.getInputProps('password')}
                visibilityToggleButtonProps={{ 'aria-label': t('add.togglePassword') }}
              />
              <Select
                name="langue"
                label={t('add.fields.language')}
                description={t('add.fields.languageHint')}
                required
                data={[
                  { value: 'en', label: t('add.languages.en') },
                  { value: 'fr', label: t('add.languages.fr') },
                ]}
                value={values.langue}
                onChange={(v) => setField('langue', v === 'fr' ? 'fr' : 'en')}
                data-testid="add-user-language"
              />
            </SimpleGrid>
            <Select
              name="role"
              label={t('add.fields.role')}
              placeholder={roles.isPending ? t('add.loading') : t('add.fields.rolePlaceholder')}
              required
              data={(roles.data ?? []).map((r) => ({ value: r._id, label: t(`roles.${r.slug}`, { defaultValue: r.slug }) }))}
              value={values.roles[0] ?? null}
              onChange={(v) => setField('roles', v ? [v] : [])}
              error={errorOf('roles') ?? (roles.isError ? t('add.loadError') : undefined)}
              data-path="roles"
              data-testid="add-user-role"
              // Five roles whose names wrap on a phone: in a scroll area of fixed height the list scrolled, a
              // scrollable region with nothing focusable in it (axe: scrollable-region-focusable). The whole list shows.
              withScrollArea={false}
            />

            {isLedesAgent && (
              <>
                <Divider label={t('add.ledesSection')} labelPosition="left" />
                <RepeatableList
                  testId="client-ids"
                  label={t('add.fields.clientIds')}
                  itemLabel={(i) => t('add.fields.clientId', { n: i + 1 })}
                  addLabel={t('add.addClientId')}
                  removeLabel={(i) => t('add.removeClientId', { n: i + 1 })}
                  count={values.id_client.length}
                  onAdd={() => form.insertListItem('id_client', '')}
                  onRemove={(i) => form.removeListItem('id_client', i)}
                  inputProps={(i) => form.getInputProps(`id_client.${i}`)}
                />
                {address ? (
                  <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />} data-testid="address-created">
                    <Text size="sm">
                      {t('add.addressCreated', {
                        name: address.destinataire_libelle,
                        city: address.ville_libelle,
                        country: address.pays_code,
                        client: address.id_client,
                      })}
                    </Text>
                  </Alert>
                ) : (
                  <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="address-missing">
                    {t('add.addressMissing')}
                  </Alert>
                )}
                <Button
                  variant="light"
                  leftSection={<IconMapPin size={16} aria-hidden="true" />}
                  onClick={() => setDrawerOpen(true)}
                  w="fit-content"
                  data-testid="open-address"
                >
                  {t('add.openAddress')}
                </Button>
              </>
            )}

            {isAnnuitiesAgent && (
              <>
                <Divider label={t('add.annuitiesSection')} labelPosition="left" />
                <Checkbox.Group
                  label={t('add.fields.cabinets')}
                  required
                  value={values.cabinets}
                  onChange={(v) => setField('cabinets', v)}
                  error={errorOf('cabinets')}
                  data-path="cabinets"
                >
                  <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }} mt="xs">
                    {(cabinets.data ?? []).map((c) => (
                      <Checkbox key={c._id} value={c._id} label={c.name} />
                    ))}
                  </SimpleGrid>
                  {cabinets.data?.length === 0 && (
                    <Text size="sm" c="dimmed">
                      {t('add.noCabinet')}
                    </Text>
                  )}
                </Checkbox.Group>
                <RepeatableList
                  testId="codes"
                  label={t('add.fields.codes')}
                  itemLabel={(i) => t('add.fields.code', { n: i + 1 })}
                  addLabel={t('add.addCode')}
                  removeLabel={(i) => t('add.removeCode', { n: i + 1 })}
                  count={values.code.length}
                  onAdd={() => form.insertListItem('code', '')}
                  onRemove={(i) => form.removeListItem('code', i)}
                  inputProps={(i) => form.getInputProps(`code.${i}`)}
                />
              </>
            )}

            <Group justify="space-between" mt="md">
              <Anchor component={Link} to="/admin/user" size="sm">
                {t('add.cancel')}
              </Anchor>
              <Button type="submit" size="md" loading={mutation.isPending} data-testid="add-user-submit">
                {t('add.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      <InfoModal
        opened={helpOpen}
        onClose={() => setHelpOpen(false)}
        title={t('add.help.title')}
        paragraphs={t('add.help.paragraphs', { returnObjects: true, min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH }) as string[]}
      />
      <AddressDrawer opened={drawerOpen} onClose={() => setDrawerOpen(false)} clientIds={values.id_client} onCreated={setAddress} />
    </Stack>
  );
}
