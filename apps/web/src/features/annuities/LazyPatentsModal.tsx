import { lazy, Suspense } from 'react';
import type { AnnuityFileDto } from '@portal/contracts';

const PatentsModal = lazy(() => import('./PatentsModal.tsx'));

/**
 * The patents-by-file modal in its own chunk, mounted (closed) with the page that opens it: Mantine
 * records what had the focus when a modal opens, not when it mounts open, and gives it back on close
 * (a modal mounted on open, unmounted on close, dropped the focus on the page's body). Mounting it
 * closed also fetches its code before the first click.
 */
export function LazyPatentsModal({ file, onClose }: { file: AnnuityFileDto | null; onClose: () => void }) {
  return (
    <Suspense fallback={null}>
      <PatentsModal file={file} onClose={onClose} />
    </Suspense>
  );
}
