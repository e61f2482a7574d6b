import { useState } from 'react';
import { ActionIcon, Tooltip } from '@mantine/core';
import type { IconDownload } from '@tabler/icons-react';
import { notifyError } from '../lib/notify.ts';
import type { Message } from '../lib/message.tsx';

/**
 * Downloads a stored file without opening the row it sits in: an icon button named by `label`,
 * busy while the file comes, a persistent error toast when it fails (`failure(error)` chooses its words).
 */
export function DownloadButton({
  label,
  testId,
  icon: Icon,
  download,
  failure,
}: {
  label: string;
  testId: string;
  icon: typeof IconDownload;
  download: () => Promise<unknown>;
  failure: (error: unknown) => Message;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <Tooltip label={label} withArrow openDelay={300}>
      <ActionIcon
        variant="light"
        size="lg"
        aria-label={label}
        data-testid={testId}
        loading={busy}
        onClick={(e) => {
          e.stopPropagation();
          setBusy(true);
          download()
            .catch((error: unknown) => {
              console.error('download failed', error);
              notifyError(failure(error));
            })
            .finally(() => setBusy(false));
        }}
        onKeyDown={(e) => e.stopPropagation()}
      >
        <Icon size={18} aria-hidden="true" />
      </ActionIcon>
    </Tooltip>
  );
}
