import type { AnnuityFileDto } from './annuities.ts';
import type { LedesRunDto } from './ledes.ts';
import type { PatentsChangedEvent } from './patents.ts';
import type { PatentImportDto } from './patent-portfolio.ts';
import type { ReceiptUploadDto } from './receipts.ts';
import type { RegisterSyncRunDto } from './registers.ts';


/** Server → client events; each carries the full new state so clients upsert idempotently. */
export interface ServerToClientEvents {
  'ledes:run': (run: LedesRunDto) => void;
  /** A file's new state or progress (rows_done / rows_total), to its owner; transitions also to the admins. */
  'annuities:file:updated': (file: AnnuityFileDto) => void;
  /** Patents changed (instruction, validation, missing information, a new record): ids and source only; clients refetch. */
  'patents:changed': (change: PatentsChangedEvent) => void;
  /** A portfolio import's progress (rows_done / rows_total) to its uploader, its state and counts also to the admins. */
  'patents:import:updated': (patentImport: PatentImportDto) => void;
  /** A receipt upload's progress (entries_done / entries_total) and result (receipts made, entries refused) to its uploader and the admins. */
  'receipts:upload:updated': (upload: ReceiptUploadDto) => void;
  /** A register sync run's progress (done / total, paused until) to the admins. */
  'registers:sync:updated': (run: RegisterSyncRunDto) => void;
}
