import { useRef, useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { NEW_CASE_EXTENSIONS, NEW_CASE_MAX_BYTES } from '@portal/contracts';
import { overlayProps } from '../../../app/theme.ts';
import { FileUpload } from '../../../components/FileUpload.tsx';
import { formatBytes, type FileRules } from '../../../lib/files.ts';
import { msg } from '../../../lib/message.tsx';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { sendNewCase } from '../api.ts';

/** What the new-case mail accepts (the API bounds it the same way). */
export const NEW_CASE_RULES: FileRules = { extensions: NEW_CASE_EXTENSIONS, maxFiles: 1, maxBytes: NEW_CASE_MAX_BYTES };

/** The contact-us banner's modal: one file, mailed to support with a copy to the sender. */
export function NewCaseModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('patents');
  const phone = useMediaQuery('(max-width: 40em)');
  const [files, setFiles] = useState<File[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const transfer = useRef<AbortController | null>(null);

  const close = () => {
    transfer.current?.abort();
    setFiles([]);
    setError(null);
    onClose();
  };

  const send = async () => {
    const file = files[0];
    if (!file) {
      setError('required');
      return;
    }
    setSending(true);
    const controller = new AbortController();
    transfer.current = controller;
    try {
      await sendNewCase(file, { signal: controller.signal });
      notifySuccess(msg('patents:newCase.success'), msg('patents:newCase.successText'));
      setFiles([]);
      onClose();
    } catch (cause) {
      if (!(cause instanceof DOMException && cause.name === 'AbortError')) notifyError(msg('patents:newCase.errorTitle'), msg('patents:newCase.error'));
    } finally {
      setSending(false);
      transfer.current = null;
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={t('newCase.title')} size="lg" fullScreen={phone} {...overlayProps()} data-testid="new-case-modal">
      <Stack gap="md">
        <Text size="sm">{t('newCase.intro')}</Text>
        <FileUpload
          label={t('newCase.label')}
          hint={t('newCase.hint', { size: formatBytes(NEW_CASE_RULES.maxBytes) })}
          rules={NEW_CASE_RULES}
          files={files}
          onFilesChange={(next) => {
            setFiles(next);
            if (next.length) setError(null);
          }}
          error={error ? t('newCase.required') : undefined}
          disabled={sending}
          inputTestId="new-case-input"
          errorTestId="new-case-error"
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close}>
            {t('newCase.cancel')}
          </Button>
          <Button onClick={() => void send().catch(() => undefined)} loading={sending} data-testid="new-case-send" data-autofocus>
            {t('newCase.send')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
