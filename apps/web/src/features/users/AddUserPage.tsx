import { useState, type FormEvent } from 'react';
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
import { EMAIL_PATTERN, PASSWORD_MIN_LENGTH, type AgentAddress, type CreateUserBody, type Language } from '@portal/contracts';
import { ApiError } from '../../lib/api.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { InfoModal } from '../../components/InfoModal.tsx';
import { AddressDrawer } from './AddressDrawer.tsx';
import { RepeatableList } from './RepeatableList.tsx';
import { cabinetsQuery, createUser, rolesQuery, sendFirstConnection } from './api.ts';

type Errors = Partial<Record<'company_agent' | 'email' | 'password' | 'role' | 'cabinets', string>> & {
  id_client?: (string | undefined)[];
  code?: (string | undefined)[];
};

const FIELD_KEYS: Record<string, string> = {
  email_empty: 'add.errors.emailEmpty',
  wrong_email: 'add.errors.emailInvalid',
  password_empty: 'add.errors.passwordEmpty',
  password_too_short: 'add.errors.passwordTooShort',
  password_too_long: 'add.errors.passwordTooLong',
  role_required: 'add.errors.roleRequired',
  cabinet_required: 'add.errors.cabinetRequired',
};

export function AddUserPage() {
  const { t } = useTranslation('users');
  const queryClient = useQueryClient();
  const roles = useQuery(rolesQuery);
  const cabinets = useQuery(cabinetsQuery);

  const [company, setCompany] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [roleId, setRoleId] = useState<string | null>(null);
  const [langue, setLangue] = useState<Language>('en');
  const [clientIds, setClientIds] = useState<string[]>(['']);
  const [codes, setCodes] = useState<string[]>(['']);
  const [cabinetIds, setCabinetIds] = useState<string[]>([]);
  const [address, setAddress] = useState<AgentAddress | null>(null);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [helpOpen, setHelpOpen] = useState(false);

  const roleSlug = roles.data?.find((r) => r._id === roleId)?.slug;
  const isLedesAgent = roleSlug === 'user_agent_ledes';
  const isAnnuitiesAgent = roleSlug === 'user_agent_annuites';

  const reset = () => {
    setCompany('');
    setEmail('');
    setPassword('');
    setRoleId(null);
    setLangue('en');
    setClientIds(['']);
    setCodes(['']);
    setCabinetIds([]);
    setAddress(null);
    setErrors({});
  };

  const mutation = useMutation({
    mutationFn: async (body: CreateUserBody) => {
      const created = await createUser(body);
      // The new user gets a set-your-password e-mail.
      const mailSent = await sendFirstConnection(body.email).then(
        () => true,
        () => false,
      );
      return { created, mailSent };
    },
    onSuccess: ({ mailSent }) => {
      notifySuccess(t('add.success'));
      if (!mailSent) notifyError(t('add.mailFailed'));
      queryClient.invalidateQueries({ queryKey: ['users'] });
      reset();
    },
    onError: (err) => {
      if (err instanceof ApiError) {
        const next: Errors = {};
        for (const [field, code] of Object.entries(err.fields)) {
          const key = FIELD_KEYS[code];
          if (field === 'company_agent' || field === 'email' || field === 'password') next[field] = key ? t(key) : t('add.errors.invalid');
          if (field === 'roles') next.role = t('add.errors.roleRequired');
          if (field === 'cabinets') next.cabinets = t('add.errors.cabinetRequired');
        }
        setErrors((e) => ({ ...e, ...next }));
        notifyError(t('add.failure') + (err.isServerError && !err.message ? t('add.serverError') : err.message));
      } else {
        notifyError(t('add.thrown') + err.message);
      }
    },
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const next: Errors = {};
    if (!company.trim()) next.company_agent = t('add.errors.companyEmpty');
    if (!email.trim()) next.email = t('add.errors.emailEmpty');
    else if (!EMAIL_PATTERN.test(email.trim())) next.email = t('add.errors.emailInvalid');
    if (!password) next.password = t('add.errors.passwordEmpty');
    else if (password.length < PASSWORD_MIN_LENGTH) next.password = t('add.errors.passwordTooShort', { min: PASSWORD_MIN_LENGTH });
    if (!roleId) next.role = t('add.errors.roleRequired');
    if (isLedesAgent) {
      const errs = clientIds.map((c) => (c.trim() ? undefined : t('add.errors.clientIdEmpty')));
      if (errs.some(Boolean)) next.id_client = errs;
    }
    if (isAnnuitiesAgent) {
      if (cabinetIds.length === 0) next.cabinets = t('add.errors.cabinetRequired');
      const errs = codes.map((c) => (c.trim() ? undefined : t('add.errors.codeEmpty')));
      if (errs.some(Boolean)) next.code = errs;
    }
    setErrors(next);
    if (Object.keys(next).length > 0 || !roleId) return;
    mutation.mutate({
      company_agent: company.trim(),
      email: email.trim(),
      password,
      roles: [roleId],
      id_client: isLedesAgent ? clientIds.map((c) => c.trim()) : [],
      cabinets: isAnnuitiesAgent ? cabinetIds : [],
      code: isAnnuitiesAgent ? codes.map((c) => c.trim()) : [],
      langue,
    });
  };

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
        <form onSubmit={onSubmit} noValidate data-testid="add-user-form">
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <TextInput
                name="company_agent"
                label={t('add.fields.company')}
                required
                value={company}
                onChange={(e) => setCompany(e.currentTarget.value)}
                error={errors.company_agent}
              />
              <TextInput
                name="email"
                type="email"
                label={t('add.fields.email')}
                autoComplete="off"
                required
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
                error={errors.email}
              />
              <PasswordInput
                name="password"
                label={t('add.fields.password')}
                description={t('add.fields.passwordHint', { min: PASSWORD_MIN_LENGTH })}
                autoComplete="new-password"
                required
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                error={errors.password}
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
                value={langue}
                onChange={(v) => setLangue(v ?? 'en')}
                data-testid="add-user-language"
              />
            </SimpleGrid>
            <Select
              name="role"
              label={t('add.fields.role')}
              placeholder={roles.isPending ? t('add.loading') : t('add.fields.rolePlaceholder')}
              required
              data={(roles.data ?? []).map((r) => ({ value: r._id, label: t(`roles.${r.slug}`, { defaultValue: r.slug }) }))}
              value={roleId}
              onChange={(v) => {
                setRoleId(v);
                setErrors((e) => ({ ...e, role: undefined }));
              }}
              error={errors.role ?? (roles.isError ? t('add.loadError') : undefined)}
              data-testid="add-user-role"
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
                  values={clientIds}
                  onChange={setClientIds}
                  errors={errors.id_client}
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
                  value={cabinetIds}
                  onChange={(v) => {
                    setCabinetIds(v);
                    setErrors((e) => ({ ...e, cabinets: undefined }));
                  }}
                  error={errors.cabinets}
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
                  values={codes}
                  onChange={setCodes}
                  errors={errors.code}
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
        paragraphs={t('add.help.paragraphs', { returnObjects: true, min: PASSWORD_MIN_LENGTH }) as string[]}
      />
      <AddressDrawer opened={drawerOpen} onClose={() => setDrawerOpen(false)} clientIds={clientIds} onCreated={setAddress} />
    </Stack>
  );
}
