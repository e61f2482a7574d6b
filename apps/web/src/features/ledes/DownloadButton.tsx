import { useState } from 'react';
import { ActionIcon, Tooltip } from '@mantine/core';
import type { IconDownload } from '@tabler/icons-react';
import { notifyError } from '../../lib/notify.ts';
import { msg } from '../../lib/message.tsx';
import { downloadLedesFile } from './api.ts';

/** Downloads a stored file (original or treated) without opening the row it sits in. */
export function DownloadButton({ path, label, testId, icon: Icon }: { path: string; label: string; testId: string; icon: typeof IconDownload }) {
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
          downloadLedesFile(path)
            .catch((error: unknown) => {
              console.error('download failed', error);
              notifyError(msg('ledes:admin.downloadError'));
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
