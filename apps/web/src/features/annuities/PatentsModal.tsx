import { Modal } from '@mantine/core';
import type { AnnuityFileDto } from '@portal/contracts';

/**
 * The patents-by-file modal (spec "Patents-by-file modal"). The file list opens it for a Done file;
 * `file` null means closed. Placeholder until the patents table lands.
 */
export default function PatentsModal({ file, onClose }: { file: AnnuityFileDto | null; onClose: () => void }) {
  return (
    <Modal opened={file !== null} onClose={onClose} title={file?.title ?? file?.name_file_import ?? ''} size="100%">
      {file?.name_file_import}
    </Modal>
  );
}
