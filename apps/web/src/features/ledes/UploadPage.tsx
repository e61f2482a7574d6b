import { useMemo, useRef, useState, type FormEvent } from 'react';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Input,
  Paper,
  Radio,
  SegmentedControl,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import '@mantine/dropzone/styles.css';
import { IconAlertTriangle, IconFileText, IconInfoCircle, IconTrash, IconUpload, IconUserShield, IconX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { LEDES_EXTENSIONS, LEDES_MAX_FILES, LEDES_TYPES, type LedesType } from '@portal/contracts';
import { ApiError } from '../../lib/api.ts';
import { isAdmin, LOGGED_OUT } from '../../lib/access.ts';
import { sessionQuery } from '../../lib/auth.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ledesKeys, ledesUsersQuery, officesQuery, uploadLedes, UploadTimeoutError, type LedesRunDetail, type UploadInput } from './api.ts';
import { ClientChoiceModal, type ClientChoice } from './ClientChoiceModal.tsx';
import { officeLabel } from './labels.ts';
import { addFiles, CHECK_FIELD, clientDecision, firstUploadError, formatBytes, isLedesType, resultPath, type UploadField } from './model.ts';
import classes from './ledes.module.css';

type FieldErrors = Partial<Record<UploadField | 'general', string>>;

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

const EXTENSIONS = LEDES_EXTENSIONS.map((e) => `.${e}`);
/** react-dropzone wants MIME keys; the extensions do the real filtering (LEDES files often have no MIME type). */
const ACCEPT: Record<string, string[]> = {
  'text/plain': EXTENSIONS.filter((e) => e !== '.xml'),
  'application/xml': ['.xml'],
  'text/xml': ['.xml'],
};

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

export function UploadPage() {
  const { t, i18n } = useTranslation('ledes');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useQuery(sessionQuery).data ?? { ...LOGGED_OUT, user: null };
  const admin = isAdmin(session);
  const offices = useQuery(officesQuery);
  const users = useQuery({ ...ledesUsersQuery, enabled: admin });

  const [files, setFiles] = useState<File[]>([]);
  const [type, setType] = useState<LedesType | null>(null);
  const [office, setOffice] = useState<string | null>(null);
  const [userId, setUserId] = useState<string | null>(null);
  const [sendHistory, setSendHistory] = useState(true);
  const [sendServer, setSendServer] = useState(true);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [notice, setNotice] = useState<string | null>(null);
  const [choosing, setChoosing] = useState<string[] | null>(null);
  const openRef = useRef<() => void>(null);
  const lang = i18n.resolvedLanguage ?? i18n.language;

  const userOptions = useMemo(
    () => (users.data ?? []).map((u) => ({ value: u._id, label: `${u.company_agent} — ${u.email}` })),
    [users.data],
  );

  const upload = useMutation({
    mutationFn: (input: UploadInput) => uploadLedes(input),
    onSuccess: (runs) => {
      // The result screen shows the runs at once, in progress; live events and refetches take over.
      for (const run of runs) queryClient.setQueryData<LedesRunDetail>(ledesKeys.run(run._id), { run, result: null });
      queryClient.invalidateQueries({ queryKey: ledesKeys.histories });
      navigate(resultPath(runs.map((r) => r._id)));
    },
    onError: (error) => {
      if (error instanceof UploadTimeoutError) return setErrors({ general: t('upload.errors.timeout') });
      if (error instanceof ApiError) {
        const field = CODE_FIELD[error.code];
        if (field) {
          const local = CHECK_FIELD[error.code as keyof typeof CHECK_FIELD] ? t(`upload.errors.${error.code}`) : undefined;
          setErrors({ [field]: local ?? (error.message || t('upload.errors.generic')) });
          return;
        }
        if (error.code === 'network_error') return setErrors({ general: t('upload.errors.network') });
        if (error.fields.id_client) return setErrors({ general: t('upload.errors.idClient') });
        return setErrors({ general: error.message || t('upload.errors.generic') });
      }
      setErrors({ general: t('upload.errors.generic') });
    },
  });

  const onFiles = (incoming: File[]) => {
    const outcome = addFiles(files, incoming);
    setFiles(outcome.files);
    const messages: string[] = [];
    if (outcome.wrongExtension.length) messages.push(t('upload.files.wrongExtension', { names: outcome.wrongExtension.join(', '), extensions: EXTENSIONS.join(', ') }));
    if (outcome.overflow.length) messages.push(t('upload.files.tooMany', { max: LEDES_MAX_FILES }));
    setNotice(messages.length ? messages.join(' ') : null);
    if (outcome.files.length) setErrors((e) => ({ ...e, file: undefined }));
  };

  const send = (choice: ClientChoice | null) => {
    if (!type || !office) return;
    upload.mutate({
      files,
      type,
      office,
      ...(admin ? { userId: userId ?? undefined, sendHistory, sendServer } : {}),
      idClient: choice?.idClient,
      clientDestinataire: choice?.name,
    });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (upload.isPending) return;
    const check = firstUploadError({ files, type, office, isAdmin: admin, userId });
    if (check) {
      setErrors({ [CHECK_FIELD[check]]: t(`upload.errors.${check}`) });
      return;
    }
    setErrors({});
    const idClients = admin ? users.data?.find((u) => u._id === userId)?.id_client : session.user?.id_client;
    const decision = clientDecision(idClients);
    if (decision.kind === 'choose') setChoosing(decision.idClients);
    else send(decision.kind === 'single' ? { idClient: decision.idClient, name: undefined } : null);
  };

  const sending = upload.isPending;

  return (
    <Stack gap="lg" maw={980} mx="auto" w="100%">
      <PageHeader title={t('upload.title')} description={t('upload.description')} />
      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }} component="form" onSubmit={onSubmit} noValidate data-testid="ledes-upload-form">
        <Stack gap="xl">
          <Section
            step={1}
            title={t('upload.files.title')}
            aside={
              files.length > 0 && (
                <Badge variant="light" radius="sm" tt="none" data-testid="file-count">
                  {t('upload.files.count', { count: files.length, max: LEDES_MAX_FILES })}
                </Badge>
              )
            }
          >
            <Input.Wrapper error={errors.file} errorProps={{ 'data-testid': 'error-file' }}>
              <Dropzone
                onDrop={onFiles}
                onReject={(rejections) => onFiles(rejections.map((r) => r.file))}
                multiple
                accept={ACCEPT}
                openRef={openRef}
                disabled={sending}
                className={classes.dropzone}
                data-invalid={errors.file ? true : undefined}
                inputProps={{ 'data-testid': 'ledes-file-input', 'aria-label': t('upload.files.inputLabel') } as never}
                activateOnClick
              >
                <Group justify="center" gap="lg" mih={120} wrap="nowrap" style={{ pointerEvents: 'none' }}>
                  <Dropzone.Accept>
                    <IconUpload size={44} stroke={1.5} color="var(--mantine-color-brand-6)" aria-hidden="true" />
                  </Dropzone.Accept>
                  <Dropzone.Reject>
                    <IconX size={44} stroke={1.5} color="var(--mantine-color-red-6)" aria-hidden="true" />
                  </Dropzone.Reject>
                  <Dropzone.Idle>
                    <IconFileText size={44} stroke={1.5} color="var(--mantine-color-brand-5)" aria-hidden="true" />
                  </Dropzone.Idle>
                  <div>
                    <Text size="lg" fw={600}>
                      {t('upload.files.drop')}
                    </Text>
                    <Text size="sm" c="dimmed" mt={4}>
                      {t('upload.files.hint', { extensions: EXTENSIONS.join(', '), max: LEDES_MAX_FILES })}
                    </Text>
                  </div>
                </Group>
              </Dropzone>
            </Input.Wrapper>
            {notice && (
              <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} aria-hidden="true" />} withCloseButton onClose={() => setNotice(null)} data-testid="file-notice">
                {notice}
              </Alert>
            )}
            {files.length > 0 && (
              <Stack gap={6} component="ul" className={classes.fileList} aria-label={t('upload.files.selected')} data-testid="file-list">
                {files.map((f, i) => (
                  <Group key={`${f.name}-${f.size}-${i}`} component="li" justify="space-between" wrap="nowrap" className={classes.fileItem}>
                    <Group gap="sm" wrap="nowrap" miw={0}>
                      <IconFileText size={18} aria-hidden="true" color="var(--mantine-color-brand-6)" style={{ flexShrink: 0 }} />
                      <Text size="sm" fw={500} truncate="end">
                        {f.name}
                      </Text>
                      <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                        {formatBytes(f.size)}
                      </Text>
                    </Group>
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      disabled={sending}
                      onClick={() => setFiles(files.filter((_, j) => j !== i))}
                      aria-label={t('upload.files.remove', { name: f.name })}
                    >
                      <IconTrash size={16} aria-hidden="true" />
                    </ActionIcon>
                  </Group>
                ))}
              </Stack>
            )}
          </Section>

          <Section step={2} title={t('upload.type.title')}>
            <Radio.Group
              value={type}
              onChange={(v) => {
                if (isLedesType(v)) setType(v);
                setErrors((e) => ({ ...e, type: undefined }));
              }}
              error={errors.type}
              errorProps={{ 'data-testid': 'error-type' }}
              aria-label={t('upload.type.title')}
              name="type"
            >
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                {LEDES_TYPES.map((v) => (
                  <Radio.Card key={v} value={v} radius="md" p="md" className={classes.choice} mod={{ invalid: !!errors.type }} data-testid={`type-${v}`} disabled={sending}>
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
            {type === 'annuites' && (
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
                value={office}
                onChange={(v) => {
                  setOffice(v);
                  setErrors((e) => ({ ...e, office: undefined }));
                }}
                error={errors.office}
                errorProps={{ 'data-testid': 'error-office' }}
                aria-label={t('upload.office.title')}
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
                      mod={{ invalid: !!errors.office }}
                      data-testid={`office-${o.code}`}
                      disabled={sending}
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
                  value={userId}
                  onChange={(v) => {
                    setUserId(v);
                    setErrors((e) => ({ ...e, user: undefined }));
                  }}
                  searchable
                  nothingFoundMessage={t('upload.admin.nothingFound')}
                  error={errors.user}
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

          {errors.general && (
            <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} aria-hidden="true" />} role="alert" data-testid="upload-error">
              {errors.general}
            </Alert>
          )}

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
