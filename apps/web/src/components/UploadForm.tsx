import { useRef, useState, type ReactNode } from 'react';
import { Button, Group, Paper, Stack } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import type { UploadProgress } from '../lib/api.ts';
import { FileUpload, type FileUploadProps } from './FileUpload.tsx';

/** How a screen sends its file: its API call, with the transfer's signal (cancel) and its progress. */
export type SendFile<R> = (file: File, options: { signal: AbortSignal; onProgress: (progress: UploadProgress) => void }) => Promise<R>;

export interface FileUploadState {
  files: File[];
  setFiles: (files: File[]) => void;
  progress: UploadProgress | null;
  pending: boolean;
  /** Cancels the transfer under way (nothing is reported: a cancel is not an error). */
  cancel: () => void;
  /** Sends the chosen file; `'no-file'` when none is chosen, `'busy'` when one is on its way. */
  start: () => 'started' | 'no-file' | 'busy';
}

/**
 * One file upload of a screen: the chosen files, the transfer's progress and its cancel, the send (a mutation).
 * Success clears the choice; a cancel reports nothing; other errors go to `onError`.
 */
export function useFileUpload<R>(send: SendFile<R>, { onSuccess, onError }: { onSuccess: (result: R) => void; onError: (error: unknown) => void }): FileUploadState {
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const transfer = useRef<AbortController | null>(null);
  const upload = useMutation({
    mutationFn: (file: File) => {
      transfer.current = new AbortController();
      setProgress({ loaded: 0, total: file.size });
      return send(file, { signal: transfer.current.signal, onProgress: setProgress });
    },
    onSuccess: (result) => {
      setFiles([]);
      onSuccess(result);
    },
    onError: (error) => {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      onError(error);
    },
    onSettled: () => {
      transfer.current = null;
      setProgress(null);
    },
  });
  return {
    files,
    setFiles,
    progress,
    pending: upload.isPending,
    cancel: () => transfer.current?.abort(),
    start: () => {
      if (upload.isPending) return 'busy';
      const file = files[0];
      if (!file) return 'no-file';
      upload.mutate(file);
      return 'started';
    },
  };
}

export interface UploadFormProps {
  upload: FileUploadState;
  label: string;
  hint: string;
  rules: FileUploadProps['rules'];
  /** The file field's error (wrong type, too large, none chosen). */
  fileError: string | null;
  /** A file was chosen (the screen clears its error). */
  onChosen: () => void;
  /** The form was submitted (the screen clears its messages and calls `upload.start()`). */
  onSubmit: () => void;
  submitLabel: string;
  testIds: { form: string; input: string; error: string; submit: string };
  /** Below the file field: the screen's own messages (a general error). */
  children?: ReactNode;
}

/** The upload block of the admins' screens: a form with the file field, its progress and cancel, and the submit button. */
export function UploadForm({ upload, label, hint, rules, fileError, onChosen, onSubmit, submitLabel, testIds, children }: UploadFormProps) {
  return (
    <Paper
      withBorder
      shadow="xs"
      p={{ base: 'md', sm: 'lg' }}
      component="form"
      onSubmit={(event: React.FormEvent) => {
        event.preventDefault();
        if (!upload.pending) onSubmit();
      }}
      noValidate
      data-testid={testIds.form}
    >
      <Stack gap="md">
        <FileUpload
          label={label}
          hint={hint}
          rules={rules}
          files={upload.files}
          onFilesChange={(next) => {
            upload.setFiles(next);
            if (next.length) onChosen();
          }}
          error={fileError ?? undefined}
          disabled={upload.pending}
          progress={upload.progress}
          onCancel={upload.cancel}
          dataPath="file"
          inputTestId={testIds.input}
          errorTestId={testIds.error}
        />
        {children}
        <Group justify="flex-end">
          <Button type="submit" leftSection={<IconUpload size={18} aria-hidden="true" />} loading={upload.pending} data-testid={testIds.submit}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
