import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconList, IconUpload } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { ReceiptUploadDto } from '@portal/contracts';
import { ApiError, type UploadProgress } from '../../lib/api.ts';
import { formatBytes } from '../../lib/files.ts';
import { msg } from '../../lib/message.tsx';
import { notifyError } from '../../lib/notify.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { FileUpload } from '../../components/FileUpload.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { RECEIPT_FILE_RULES, RECEIPT_REDIRECT_MS, uploadReceipts, useReceiptsLive } from './receiptsApi.ts';
import { UploadCard, UploadList } from './UploadList.tsx';

/**
 * Spec "Receipts" upload: a file picker or drag and drop (the shared FileUpload), a file is required
 * (the error flag). Success shows 'Zip upload' and the run's live state, then home after 2 s
 * (decision 124); a failure the 'Error uploading receipts' popup. Below, the caller's recent uploads.
 */
export function ReceiptUploadPage() {
  const { t } = useTranslation('receipts');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [files, setFiles] = useState<File[]>([]);
  const [fileError, setFileError] = useState<string | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [sent, setSent] = useState<ReceiptUploadDto | null>(null);
  const transfer = useRef<AbortController | null>(null);

  const follow = useCallback((dto: ReceiptUploadDto) => setSent((current) => (current && current._id === dto._id ? dto : current)), []);
  const live = useReceiptsLive(follow);

  const upload = useMutation({
    mutationFn: (file: File) => {
      transfer.current = new AbortController();
      setProgress({ loaded: 0, total: file.size });
      return uploadReceipts(file, { signal: transfer.current.signal, onProgress: setProgress });
    },
    onSuccess: (answer) => {
      setFiles([]);
      setSent(answer.upload);
      queryClient.invalidateQueries({ queryKey: queryKeys.receipts.uploadPages() });
    },
    onError: (error) => {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      if (error instanceof ApiError) {
        if (error.code === 'wrong_receipt_type' || error.code === 'wrong_extension') return setFileError(t('upload.errors.wrongType'));
        if (error.code === 'payload_too_large') return setFileError(t('upload.errors.tooLarge', { size: formatBytes(RECEIPT_FILE_RULES.maxBytes) }));
        if (error.code === 'error_choose_file') return setFileError(t('upload.errors.chooseFile'));
        if (error.code === 'empty_file') return setFileError(t('upload.errors.empty'));
      }
      notifyError(msg('receipts:upload.errorTitle'), msg('receipts:upload.errorMessage'));
    },
    onSettled: () => {
      transfer.current = null;
      setProgress(null);
    },
  });

  // Spec: two seconds after success, home.
  const sentId = sent?._id;
  useEffect(() => {
    if (!sentId) return undefined;
    const timer = setTimeout(() => {
      navigate('/');
    }, RECEIPT_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [sentId, navigate]);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (upload.isPending) return;
    const file = files[0];
    if (!file) return setFileError(t('upload.errors.chooseFile'));
    setFileError(null);
    upload.mutate(file);
  };

  return (
    <Stack gap="xl" maw={900} mx="auto" w="100%">
      <PageHeader
        title={t('upload.title')}
        description={t('upload.description')}
        actions={
          <Button component={Link} to="/annuities/list-receipt" variant="default" leftSection={<IconList size={16} aria-hidden="true" />}>
            {t('upload.toList')}
          </Button>
        }
      />
      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }} component="form" onSubmit={submit} noValidate data-testid="receipt-upload-form">
        <Stack gap="md">
          <FileUpload
            label={t('upload.file.label')}
            hint={t('upload.file.hint', { size: formatBytes(RECEIPT_FILE_RULES.maxBytes) })}
            rules={RECEIPT_FILE_RULES}
            files={files}
            onFilesChange={(next) => {
              setFiles(next);
              if (next.length) setFileError(null);
            }}
            error={fileError ?? undefined}
            disabled={upload.isPending || sent !== null}
            progress={progress}
            onCancel={() => transfer.current?.abort()}
            dataPath="file"
            inputTestId="receipt-file-input"
            errorTestId="error-receipt-file"
          />
          <Text size="sm" c="dark.4" data-testid="receipt-manifest-help">
            {t('upload.manifest')}
          </Text>
          {sent && (
            <Stack gap="sm" aria-live="polite">
              <Alert color="teal" icon={<IconCircleCheck size={18} aria-hidden="true" />} title={t('upload.success')} data-testid="receipt-upload-success">
                {t('upload.successDetail')}
              </Alert>
              <Stack component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
                <UploadCard item={sent} />
              </Stack>
            </Stack>
          )}
          <Group justify="flex-end">
            <Button type="submit" leftSection={<IconUpload size={18} aria-hidden="true" />} loading={upload.isPending} disabled={sent !== null} data-testid="receipt-upload-submit">
              {t('upload.submit')}
            </Button>
          </Group>
        </Stack>
      </Paper>
      <UploadList interrupted={live.interrupted} />
    </Stack>
  );
}
