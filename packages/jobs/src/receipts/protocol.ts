import type { ReceiptRefusal } from '@portal/contracts';
import type { ReceiptReferences } from './references.ts';

/** What the reading thread is given: the upload's bytes and whether it is one PDF or a zip. */
export interface ReceiptThreadInput {
  bytes: Uint8Array;
  kind: 'pdf' | 'zip';
  /** The upload's name (a single PDF's receipt is named after it). */
  name: string;
}

export type ReceiptThreadMessage =
  /** The entries to go through (files of the zip, the manifest and directories left out). */
  | { type: 'total'; entries: number }
  /** One PDF: its bytes, and its references from the manifest, its text, or none. */
  | {
      type: 'pdf';
      index: number;
      name: string;
      bytes: Uint8Array;
      references: ReceiptReferences;
      source: 'manifest' | 'pdf_text' | 'none';
      /** The PDF's text (at most RECEIPT_TEXT_KEPT characters), for the matcher (decision 192); empty when unreadable. */
      text: string;
      pdfError: string | null;
    }
  | { type: 'refused'; index: number; entry: string; code: ReceiptRefusal }
  | { type: 'done'; ok: true }
  /** The whole upload is refused (too many entries, too large once inflated, not a readable zip, unreadable manifest). */
  | { type: 'done'; ok: false; code: string; detail?: string };
