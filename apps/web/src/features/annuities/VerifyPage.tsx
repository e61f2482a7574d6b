import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Button, Group, List, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconInfoCircle, IconUpload } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { TOAST_MS } from '../../app/theme.ts';
import { ApiError, type UploadProgress } from '../../lib/api.ts';
import { focusField } from '../../lib/form.ts';
import { formatBytes } from '../../lib/files.ts';
import { msg } from '../../lib/message.tsx';
import { notifySuccess } from '../../lib/notify.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { FileUpload } from '../../components/FileUpload.tsx';
import { InfoModal } from '../../components/InfoModal.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ColumnsPicture } from './ColumnsPicture.tsx';
import { uploadAnnuityFile } from './filesApi.ts';
import { ANNUITY_FILE_RULES } from './filesModel.ts';

export const LIST_PATH = '/annuities/list-files';
/** Server codes about the file itself: shown under the picker. */
const FILE_CODES = new Set(['error_choose_file', 'wrong_extension', 'wrong_type', 'payload_too_large']);

/** Spec "Annuities verification": one spreadsheet, a title, the help modal; sent to the queue, then the file list. */
export function VerifyPage() {
  const { t } = useTranslation('annuities');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [files, setFiles] = useState<File[]>([]);
  const [title, setTitle] = useState('');
  const [fileError, setFileError] = useState<string | null>(null);
  const [general, setGeneral] = useState<string | null>(null);
  const [help, setHelp] = useState(false);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [sent, setSent] = useState(false);
  const transfer = useRef<AbortController | null>(null);
  const fileGroup = useRef<HTMLDivElement>(null);

  // After the 'being verified' toast (2 s), the file list; leaving earlier cancels the timer.
  useEffect(() => {
    if (!sent) return;
    const timer = setTimeout(() => {
      navigate(LIST_PATH);
    }, TOAST_MS);
    return () => clearTimeout(timer);
  }, [sent, navigate]);

  const showFileError = (text: string) => {
    setFileError(text);
    const group = fileGroup.current?.querySelector<HTMLElement>('[data-path="file"]');
    if (group) focusField(group);
  };

  const upload = useMutation({
    mutationFn: (input: { file: File; title: string }) => {
      transfer.current = new AbortController();
      setProgress({ loaded: 0, total: input.file.size });
      return uploadAnnuityFile(input, { signal: transfer.current.signal, onProgress: setProgress });
    },
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: queryKeys.annuities.files() });
      notifySuccess(msg('annuities:verify.sent.title'), msg('annuities:verify.sent.body'));
      setSent(true);
    },
    onError: (error) => {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      if (!(error instanceof ApiError)) return setGeneral(t('verify.errors.generic'));
      if (error.code === 'wrong_extension' || error.code === 'wrong_type') return showFileError(t('verify.errors.wrongType'));
      if (error.code === 'payload_too_large') return showFileError(t('verify.errors.tooLarge', { size: formatBytes(ANNUITY_FILE_RULES.maxBytes) }));
      if (FILE_CODES.has(error.code)) return showFileError(t('verify.errors.chooseFile'));
      if (error.code === 'timeout') return setGeneral(t('verify.errors.timeout'));
      if (error.code === 'network_error') return setGeneral(t('verify.errors.network'));
      if (error.isRateLimited) return setGeneral(error.retryAfter ? t('verify.errors.rateLimitedFor', { count: error.retryAfter }) : t('verify.errors.rateLimited'));
      setGeneral(error.message || t('verify.errors.generic'));
    },
    onSettled: () => {
      transfer.current = null;
      setProgress(null);
    },
  });

  const sending = upload.isPending;
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (sending || sent) return;
    setGeneral(null);
    const file = files[0];
    if (!file) return showFileError(t('verify.errors.chooseFile'));
    setFileError(null);
    upload.mutate({ file, title });
  };

  return (
    <Stack gap="lg" maw={860} mx="auto" w="100%">
      <PageHeader
        title={t('verify.title')}
        description={t('verify.description')}
        actions={
          <Button variant="light" leftSection={<IconInfoCircle size={18} aria-hidden="true" />} onClick={() => setHelp(true)} data-testid="verify-help">
            {t('verify.help.button')}
          </Button>
        }
      />
      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }} component="form" onSubmit={submit} noValidate data-testid="annuity-upload-form">
        <Stack gap="lg">
          <div ref={fileGroup}>
            <FileUpload
              label={t('verify.file.label')}
              hint={t('verify.file.hint', { size: formatBytes(ANNUITY_FILE_RULES.maxBytes) })}
              rules={ANNUITY_FILE_RULES}
              files={files}
              onFilesChange={(next) => {
                setFiles(next);
                if (next.length) setFileError(null);
              }}
              error={fileError ?? undefined}
              disabled={sending || sent}
              progress={progress}
              onCancel={() => transfer.current?.abort()}
              dataPath="file"
              inputTestId="annuity-file-input"
              errorTestId="error-annuity-file"
            />
          </div>
          <TextInput
            label={t('verify.titleField.label')}
            description={t('verify.titleField.help')}
            value={title}
            onChange={(e) => setTitle(e.currentTarget.value)}
            maxLength={200}
            disabled={sending || sent}
            data-testid="annuity-title"
            maw={560}
          />
          <div role="alert">
            {general && (
              <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} aria-hidden="true" />} data-testid="annuity-upload-error">
                {general}
              </Alert>
            )}
          </div>
          <div role="status">
            {sent && (
              <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} aria-hidden="true" />} data-testid="annuity-sent">
                {t('verify.sent.opening')}{' '}
                <Anchor component={Link} to={LIST_PATH}>
                  {t('verify.sent.openNow')}
                </Anchor>
              </Alert>
            )}
          </div>
          <Group justify="space-between" wrap="wrap" gap="sm">
            <Text size="xs" c="dimmed" maw={460}>
              {t('verify.footnote')}
            </Text>
            <Button type="submit" size="md" loading={sending} disabled={sent} leftSection={<IconUpload size={18} aria-hidden="true" />} data-testid="annuity-submit">
              {t('verify.submit')}
            </Button>
          </Group>
        </Stack>
      </Paper>
      <InfoModal size={900} opened={help} onClose={() => setHelp(false)} title={t('verify.help.title')} paragraphs={[t('verify.help.intro'), t('verify.help.headers')]}>
        <ColumnsPicture />
        <Text size="sm" fw={600}>
          {t('verify.help.datesTitle')}
        </Text>
        <List size="sm" spacing={2}>
          <List.Item>{t('verify.help.dates.dmy')}</List.Item>
          <List.Item>{t('verify.help.dates.ymd')}</List.Item>
          <List.Item>{t('verify.help.dates.excel')}</List.Item>
        </List>
        <Text size="sm">{t('verify.help.countries')}</Text>
      </InfoModal>
    </Stack>
  );
}
