import { useId, useRef, useState } from 'react';
import { ActionIcon, Alert, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import '@mantine/dropzone/styles.css';
import { IconAlertTriangle, IconFileText, IconFolderOpen, IconTrash, IconUpload, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { UploadProgress } from '../lib/api.ts';
import { addFiles, formatBytes, type FileRules } from '../lib/files.ts';
import classes from './FileUpload.module.css';

export interface FileUploadProps {
  /** Visible name of the control (the group's label). */
  label: string;
  /** Accepted formats and limits, in words; read with the control. */
  hint: string;
  rules: FileRules;
  files: File[];
  onFilesChange: (files: File[]) => void;
  /** The field's error (required, refused by the server …), tied to the control. */
  error?: string | undefined;
  /**
   * Whether the error announces itself (role=alert). A form with a `FormErrorSummary` passes false: the
   * summary is the one announcement of a rejected submit, and the focused control reads its message.
   */
  announceError?: boolean;
  disabled?: boolean | undefined;
  /** Bytes sent so far while uploading; null when nothing is being sent. */
  progress?: UploadProgress | null | undefined;
  /** Shown with the progress: cancels the transfer. */
  onCancel?: (() => void) | undefined;
  /** `data-path` of the form field, so a rejected submit can focus it. */
  dataPath?: string;
  inputTestId?: string;
  errorTestId?: string;
}

/**
 * The one file picker of the portal (LEDES now; annuities and receipts next): drag and drop or a
 * real button, type / size / count checks before sending with translated reasons, the selected
 * files with remove buttons, and the upload's own progress with a cancel button.
 */
export function FileUpload({
  label,
  hint,
  rules,
  files,
  onFilesChange,
  error,
  disabled,
  progress,
  onCancel,
  dataPath,
  inputTestId,
  errorTestId = 'error-file',
  announceError = true,
}: FileUploadProps) {
  const { t } = useTranslation('common');
  const openRef = useRef<() => void>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const base = useId();
  const labelId = `${base}-label`;
  const hintId = `${base}-hint`;
  const errorId = `${base}-error`;
  const extensions = rules.extensions.map((e) => `.${e}`).join(', ');
  const sending = progress != null;

  const onFiles = (incoming: File[]) => {
    const outcome = addFiles(files, incoming, rules);
    onFilesChange(outcome.files);
    const messages: string[] = [];
    if (outcome.wrongType.length) messages.push(t('fileUpload.wrongType', { names: outcome.wrongType.join(', '), extensions, count: outcome.wrongType.length }));
    if (outcome.tooLarge.length) messages.push(t('fileUpload.tooLarge', { names: outcome.tooLarge.join(', '), size: formatBytes(rules.maxBytes), count: outcome.tooLarge.length }));
    if (outcome.overflow.length) messages.push(t('fileUpload.tooMany', { count: rules.maxFiles }));
    setNotice(messages.length ? messages.join(' ') : null);
  };

  const percent = progress && progress.total > 0 ? Math.round((progress.loaded / progress.total) * 100) : 0;
  return (
    <Stack gap="sm" role="group" aria-labelledby={labelId} data-path={dataPath}>
      <Text id={labelId} fw={600} size="sm">
        {label}
      </Text>
      <Dropzone
        onDrop={onFiles}
        onReject={(rejections) => onFiles(rejections.map((r) => r.file))}
        multiple={rules.maxFiles > 1}
        openRef={openRef}
        disabled={disabled || sending}
        className={classes.zone}
        data-invalid={error ? true : undefined}
        // The button below is the keyboard's way in: the zone itself is not a tab stop.
        activateOnKeyboard={false}
        activateOnClick
        inputProps={{ 'data-testid': inputTestId, 'aria-hidden': true } as never}
      >
        <Group justify="center" gap="lg" mih={110} wrap="nowrap">
          <Dropzone.Accept>
            <IconUpload size={40} stroke={1.5} color="var(--mantine-color-brand-6)" aria-hidden="true" className={classes.icon} />
          </Dropzone.Accept>
          <Dropzone.Reject>
            <IconX size={40} stroke={1.5} color="var(--mantine-color-red-6)" aria-hidden="true" className={classes.icon} />
          </Dropzone.Reject>
          <Dropzone.Idle>
            <IconFileText size={40} stroke={1.5} color="var(--mantine-color-brand-5)" aria-hidden="true" className={classes.icon} />
          </Dropzone.Idle>
          <Stack gap={6} align="flex-start">
            <Text size="md" fw={600}>
              {t('fileUpload.drop', { count: rules.maxFiles })}
            </Text>
            <Text size="sm" c="dimmed" id={hintId}>
              {hint}
            </Text>
            <Button
              variant="default"
              size="sm"
              leftSection={<IconFolderOpen size={16} aria-hidden="true" />}
              disabled={disabled || sending}
              aria-describedby={error ? `${hintId} ${errorId}` : hintId}
              aria-invalid={error ? true : undefined}
              onClick={(e) => {
                // The zone opens the dialog on click too: once is enough.
                e.stopPropagation();
                openRef.current?.();
              }}
              data-testid="file-browse"
            >
              {t('fileUpload.browse', { count: rules.maxFiles })}
            </Button>
          </Stack>
        </Group>
      </Dropzone>
      <div role={announceError ? 'alert' : undefined} id={errorId}>
        {error && (
          <Text size="sm" c="red.8" fw={500} data-testid={errorTestId}>
            {error}
          </Text>
        )}
      </div>
      {notice && (
        <Alert
          color="orange"
          variant="light"
          role="alert"
          icon={<IconAlertTriangle size={18} aria-hidden="true" />}
          withCloseButton
          closeButtonLabel={t('fileUpload.dismiss')}
          onClose={() => setNotice(null)}
          data-testid="file-notice"
        >
          {notice}
        </Alert>
      )}
      {files.length > 0 && (
        <Stack gap={6} component="ul" className={classes.list} aria-label={t('fileUpload.selected', { count: rules.maxFiles })} data-testid="file-list">
          {files.map((f, i) => (
            <Group key={`${f.name}-${f.size}-${i}`} component="li" justify="space-between" wrap="nowrap" className={classes.item}>
              <Group gap="sm" wrap="nowrap" miw={0}>
                <IconFileText size={18} aria-hidden="true" color="var(--mantine-color-brand-6)" style={{ flexShrink: 0 }} />
                <Text size="sm" fw={500} truncate="end" title={f.name}>
                  {f.name}
                </Text>
                <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                  {formatBytes(f.size)}
                </Text>
              </Group>
              <ActionIcon
                variant="subtle"
                color="gray"
                disabled={disabled || sending}
                onClick={() => onFilesChange(files.filter((_, j) => j !== i))}
                aria-label={t('fileUpload.remove', { name: f.name })}
              >
                <IconTrash size={16} aria-hidden="true" />
              </ActionIcon>
            </Group>
          ))}
        </Stack>
      )}
      {sending && (
        <Group gap="sm" wrap="nowrap" data-testid="upload-progress">
          <Progress value={percent} flex={1} size="lg" aria-label={t('fileUpload.progressLabel')} animated={percent < 100} />
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            {percent < 100 ? t('fileUpload.progress', { percent }) : t('fileUpload.processing')}
          </Text>
          {onCancel && percent < 100 && (
            <Button variant="subtle" color="red" size="xs" onClick={onCancel} data-testid="upload-cancel">
              {t('fileUpload.cancel')}
            </Button>
          )}
        </Group>
      )}
    </Stack>
  );
}
