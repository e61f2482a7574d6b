import { useMemo, useRef, useState } from 'react';
import { Alert, Badge, Button, Group, Input, Paper, Radio, SegmentedControl, Select, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle, IconUpload, IconUserShield } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { LEDES_MAX_FILES, LEDES_TYPES, ledesUploadChoice, type LedesType } from '@portal/contracts';
import { ApiError, type UploadProgress } from '../../lib/api.ts';
import { isAdmin, LOGGED_OUT } from '../../lib/access.ts';
import { sessionQuery } from '../../lib/auth.ts';
import { useSchemaForm } from '../../lib/form.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { FileUpload } from '../../components/FileUpload.tsx';
import { FormErrorSummary } from '../../components/FormErrorSummary.tsx';
import { radioTabIndex } from '../../lib/roving.ts';
import { ledesUsersQuery, officesQuery, uploadLedes, type LedesRunDetail, type UploadInput } from './api.ts';
import { ClientChoiceModal, type ClientChoice } from './ClientChoiceModal.tsx';
import { officeLabel } from './labels.ts';
import { CHECK_FIELD, clientDecision, isLedesType, LEDES_FILE_RULES, resultPath, type UploadField } from './model.ts';
import classes from './ledes.module.css';

interface UploadValues extends Record<string, unknown> {
  files: File[];
  type: LedesType | '';
  office: string;
  user: string;
}

/** Server codes shown under a field; the others go in the alert above the submit button. */
const CODE_FIELD: Record<string, UploadField> = {
  error_file: 'file',
  wrong_extension: 'file',
  payload_too_large: 'file',
  too_many_files: 'file',
  missing_type: 'type',
  missing_office: 'office',
  missing_id_user: 'user',
};
/** Form paths of the fields, in the spec's order of the checks (file, type, office, user). */
const FIELD_PATH: Record<UploadField, keyof UploadValues & string> = { file: 'files', type: 'type', office: 'office', user: 'user' };
const CHECK_ORDER = ['files', 'type', 'office', 'user'] as const;
/** Error codes with their own text under the field; others show the server's message. */
const LOCAL_CODES = new Set<string>([...Object.keys(CHECK_FIELD), 'too_many_files']);

function Section({ step, title, children, aside }: { step: number | null; title: string; children: React.ReactNode; aside?: React.ReactNode }) {
  return (
    <Stack gap="sm">
      <Group gap="sm" justify="space-between" wrap="nowrap">
        <Group gap="sm" wrap="nowrap">
          {step !== null && (
            <ThemeIcon size={26} radius="xl" variant="light" aria-hidden="true">
              <Text fw={700} size="sm">
                {step}
              </Text>
            </ThemeIcon>
          )}
          <Title order={2} size="h4">
            {title}
          </Title>
        </Group>
        {aside}
      </Group>
      {children}
    </Stack>
  );
}

const TYPE_ERROR_ID = 'ledes-type-error';
const OFFICE_ERROR_ID = 'ledes-office-error';
/**
 * Mantine's radio group shows its message but ties it to nothing: each card of a group in error says so and
 * is described by the message, as an input given its error is.
 */
const invalidProps = (error: unknown, id: string) => (error ? { 'aria-invalid': true as const, 'aria-describedby': id } : {});

export function UploadPage() {
  const { t, i18n } = useTranslation('ledes');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useQuery(sessionQuery).data ?? { ...LOGGED_OUT, user: null };
  const admin = isAdmin(session);
  const offices = useQuery(officesQuery);
  const users = useQuery({ ...ledesUsersQuery, enabled: admin });

  const [sendHistory, setSendHistory] = useState(true);
  const [sendServer, setSendServer] = useState(true);
  const [general, setGeneral] = useState<string | null>(null);
  const [choosing, setChoosing] = useState<string[] | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const transfer = useRef<AbortController | null>(null);
  const lang = i18n.resolvedLanguage ?? i18n.language;

  const { form, onSubmit, setField, showServerErrors, invalidCount, errorOf, ref } = useSchemaForm<UploadValues, { files: unknown[]; type: LedesType; office: string }>({
    initialValues: { files: [], type: '', office: '', user: '' },
    schema: ledesUploadChoice,
    extraRules: (v) => ({ user: admin && !v.user ? 'missing_id_user' : undefined }),
    firstErrorOf: CHECK_ORDER,
    translate: (code) => (LOCAL_CODES.has(code) ? t(code === 'too_many_files' ? 'upload.files.tooMany' : `upload.errors.${code}`, { count: LEDES_MAX_FILES }) : code),
  });
  const values = form.getValues();

  const userOptions = useMemo(
    () => (users.data ?? []).map((u) => ({ value: u._id, label: `${u.company_agent} — ${u.email}` })),
    [users.data],
  );

  const upload = useMutation({
    mutationFn: (input: UploadInput) => {
      transfer.current = new AbortController();
      setProgress({ loaded: 0, total: 0 });
      return uploadLedes(input, { signal: transfer.current.signal, onProgress: setProgress });
    },
    onSuccess: (runs) => {
      // The result screen shows the runs at once, in progress; live events and refetches take over.
      for (const run of runs) queryClient.setQueryData<LedesRunDetail>(queryKeys.ledes.run(run._id), { run, result: null });
      queryClient.invalidateQueries({ queryKey: queryKeys.ledes.histories() });
      navigate(resultPath(runs.map((r) => r._id)));
    },
    onError: (error) => {
      if (error instanceof DOMException && error.name === 'AbortError') return; // cancelled by the user
      if (!(error instanceof ApiError)) return setGeneral(t('upload.errors.generic'));
      if (error.code === 'timeout') return setGeneral(t('upload.errors.timeout'));
      const field = CODE_FIELD[error.code];
      if (field) {
        // The server's own words for its limits (size, extension), ours for the checks we also make.
        const path = FIELD_PATH[field];
        if (LOCAL_CODES.has(error.code)) showServerErrors({ [path]: error.code });
        else showServerErrors({ [path]: error.message || t('upload.errors.generic') });
        return;
      }
      if (error.code === 'network_error') return setGeneral(t('upload.errors.network'));
      if (error.fields.id_client) return setGeneral(t('upload.errors.idClient'));
      setGeneral(error.message || t('upload.errors.generic'));
    },
    onSettled: () => {
      transfer.current = null;
      setProgress(null);
    },
  });

  const send = (choice: ClientChoice | null) => {
    const v = form.getValues();
    if (!isLedesType(v.type) || !v.office) return;
    setGeneral(null);
    upload.mutate({
      files: v.files,
      type: v.type,
      office: v.office,
      ...(admin ? { userId: v.user || undefined, sendHistory, sendServer } : {}),
      idClient: choice?.idClient,
      clientDestinataire: choice?.name,
    });
  };

  const submit = onSubmit(() => {
    if (upload.isPending) return;
    setGeneral(null);
    const idClients = admin ? users.data?.find((u) => u._id === form.getValues().user)?.id_client : session.user?.id_client;
    const decision = clientDecision(idClients);
    if (decision.kind === 'choose') setChoosing(decision.idClients);
    else send(decision.kind === 'single' ? { idClient: decision.idClient, name: undefined } : null);
  });

  const sending = upload.isPending;
  const typeError = errorOf('type');
  const officeError = errorOf('office');

  return (
    <Stack gap="lg" maw={980} mx="auto" w="100%">
      <PageHeader title={t('upload.title')} description={t('upload.description')} />
      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }} component="form" ref={ref} onSubmit={submit} noValidate data-testid="ledes-upload-form">
        <Stack gap="xl">
          <FormErrorSummary count={invalidCount} testId="upload-summary" />
          <Section
            step={1}
            title={t('upload.files.title')}
            aside={
              values.files.length > 0 && (
                <Badge variant="light" radius="sm" tt="none" data-testid="file-count">
                  {t('upload.files.count', { count: values.files.length, max: LEDES_MAX_FILES })}
                </Badge>
              )
            }
          >
            <FileUpload
              label={t('upload.files.inputLabel')}
              hint={t('upload.files.hint', { extensions: LEDES_FILE_RULES.extensions.map((e) => `.${e}`).join(', '), count: LEDES_MAX_FILES })}
              rules={LEDES_FILE_RULES}
              files={values.files}
              onFilesChange={(files) => setField('files', files)}
              error={errorOf('files')}
              disabled={sending}
              progress={progress}
              onCancel={() => transfer.current?.abort()}
              dataPath="files"
              inputTestId="ledes-file-input"
              errorTestId="error-file"
              announceError={false}
            />
          </Section>

          <Section step={2} title={t('upload.type.title')}>
            <Radio.Group
              value={values.type}
              onChange={(v) => {
                if (isLedesType(v)) setField('type', v);
              }}
              // The group's name: the radiogroup element is labelled by it (the section title says it visibly).
              label={<VisuallyHidden>{t('upload.type.title')}</VisuallyHidden>}
              error={typeError}
              errorProps={{ 'data-testid': 'error-type', id: TYPE_ERROR_ID }}
              data-path="type"
              name="type"
            >
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                {LEDES_TYPES.map((v) => (
                  <Radio.Card
                    key={v}
                    value={v}
                    radius="md"
                    p="md"
                    className={classes.choice}
                    mod={{ invalid: !!typeError }}
                    data-testid={`type-${v}`}
                    disabled={sending}
                    tabIndex={radioTabIndex(v, values.type, LEDES_TYPES)}
                    {...invalidProps(typeError, TYPE_ERROR_ID)}
                  >
                    <Group wrap="nowrap" align="flex-start" gap="sm">
                      <Radio.Indicator mt={2} />
                      <div>
                        <Text fw={600} size="sm">
                          {t(`types.${v}`)}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {t(`upload.type.help.${v}`)}
                        </Text>
                      </div>
                    </Group>
                  </Radio.Card>
                ))}
              </SimpleGrid>
            </Radio.Group>
            {values.type === 'annuites' && (
              <Alert color="brand" variant="light" icon={<IconInfoCircle size={18} aria-hidden="true" />} data-testid="annuity-hint">
                {t('upload.type.annuity_utility')}
              </Alert>
            )}
          </Section>

          <Section step={3} title={t('upload.office.title')}>
            {offices.isPending ? (
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                {[0, 1, 2].map((i) => (
                  <Skeleton key={i} h={52} radius="md" />
                ))}
              </SimpleGrid>
            ) : offices.isError ? (
              <Text c="red.7" size="sm" role="alert">
                {t('upload.office.loadError')}
              </Text>
            ) : (
              <Radio.Group
                value={values.office}
                onChange={(v) => setField('office', v)}
                label={<VisuallyHidden>{t('upload.office.title')}</VisuallyHidden>}
                error={officeError}
                errorProps={{ 'data-testid': 'error-office', id: OFFICE_ERROR_ID }}
                data-path="office"
                name="office"
              >
                <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                  {offices.data.map((o) => (
                    <Radio.Card
                      key={o.code}
                      value={o.code}
                      radius="md"
                      p="md"
                      className={classes.choice}
                      mod={{ invalid: !!officeError }}
                      data-testid={`office-${o.code}`}
                      disabled={sending}
                      tabIndex={radioTabIndex(o.code, values.office, offices.data.map((x) => x.code))}
                      {...invalidProps(officeError, OFFICE_ERROR_ID)}
                    >
                      <Group wrap="nowrap" gap="sm">
                        <Radio.Indicator />
                        <Text fw={600} size="sm">
                          {officeLabel(o, o.code, lang)}
                        </Text>
                        <Badge variant="default" size="sm" radius="sm" ml="auto">
                          {o.code}
                        </Badge>
                      </Group>
                    </Radio.Card>
                  ))}
                </SimpleGrid>
              </Radio.Group>
            )}
          </Section>

          {admin && (
            <Paper withBorder p="lg" radius="md" className={classes.adminBox} data-testid="admin-section">
              <Section step={null} title={t('upload.admin.title')} aside={<IconUserShield size={20} aria-hidden="true" color="var(--mantine-color-accent-7)" />}>
                <Text size="sm" c="dimmed" mt={-6}>
                  {t('upload.admin.description')}
                </Text>
                <Select
                  label={t('upload.admin.user')}
                  placeholder={t('upload.admin.userPlaceholder')}
                  data={userOptions}
                  value={values.user || null}
                  onChange={(v) => setField('user', v ?? '')}
                  data-path="user"
                  searchable
                  nothingFoundMessage={t('upload.admin.nothingFound')}
                  error={errorOf('user')}
                  errorProps={{ 'data-testid': 'error-user' }}
                  disabled={sending || users.isPending}
                  data-testid="admin-user"
                  maw={720}
                  withAsterisk
                />
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" maw={720}>
                  <Input.Wrapper label={t('upload.admin.sendHistory')} description={t('upload.admin.sendHistoryHelp')} inputWrapperOrder={['label', 'input', 'description']}>
                    <SegmentedControl
                      my={6}
                      fullWidth
                      value={sendHistory ? 'yes' : 'no'}
                      onChange={(v) => setSendHistory(v === 'yes')}
                      data={[
                        { value: 'yes', label: t('upload.admin.yes') },
                        { value: 'no', label: t('upload.admin.no') },
                      ]}
                      disabled={sending}
                      data-testid="send-history"
                      aria-label={t('upload.admin.sendHistory')}
                    />
                  </Input.Wrapper>
                  <Input.Wrapper label={t('upload.admin.sendServer')} description={t('upload.admin.sendServerHelp')} inputWrapperOrder={['label', 'input', 'description']}>
                    <SegmentedControl
                      my={6}
                      fullWidth
                      value={sendServer ? 'yes' : 'no'}
                      onChange={(v) => setSendServer(v === 'yes')}
                      data={[
                        { value: 'yes', label: t('upload.admin.yes') },
                        { value: 'no', label: t('upload.admin.no') },
                      ]}
                      disabled={sending}
                      data-testid="send-server"
                      aria-label={t('upload.admin.sendServer')}
                    />
                  </Input.Wrapper>
                </SimpleGrid>
              </Section>
            </Paper>
          )}

          <div role="alert">
            {general && (
              <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} aria-hidden="true" />} data-testid="upload-error">
                {general}
              </Alert>
            )}
          </div>

          <Group justify="space-between" wrap="wrap" gap="sm">
            <Text size="xs" c="dimmed" maw={520}>
              {sending ? t('upload.sendingHint') : t('upload.footnote')}
            </Text>
            <Button type="submit" size="md" loading={sending} disabled={sending} leftSection={<IconUpload size={18} aria-hidden="true" />} data-testid="ledes-submit">
              {sending ? t('upload.sending') : t('upload.submit')}
            </Button>
          </Group>
        </Stack>
      </Paper>

      <ClientChoiceModal
        opened={choosing !== null}
        idClients={choosing ?? []}
        onCancel={() => setChoosing(null)}
        onConfirm={(choice) => {
          setChoosing(null);
          send(choice);
        }}
      />
    </Stack>
  );
}
