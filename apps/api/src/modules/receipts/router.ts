import { pipeline } from 'node:stream/promises';
import {
  patentIdParams,
  patentReceiptsResponse,
  RECEIPT_EXTENSIONS,
  RECEIPT_UPLOAD_MAX_BYTES,
  receiptDownloadQuery,
  receiptIdParams,
  receiptListQuery,
  receiptLinkBody,
  receiptLinkResponse,
  receiptListResponse,
  receiptResponse,
  receiptUploadFields,
  receiptUploadResponse,
  receiptUploadsQuery,
  receiptUploadsResponse,
} from '@portal/contracts';
import { toReceiptUploadDto } from '@portal/jobs';
import { isValidKey, StorageNotFoundError } from '@portal/storage';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { defineRoute, type Route } from '../../http/routes.ts';
import { linkReceipt, listReceipts, listUploads, patentReceipts, readReceipt, submitReceipts } from './service.ts';

/** RFC 6266 / 5987: an ASCII fallback and the exact UTF-8 name; no header injection possible. */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\;]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

export function receiptsRoutes(ctx: AppContext): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/recepisse',
      summary:
        'Uploads receipts (multipart `file`: one PDF or a zip of PDFs, at most 25 MiB); answers at once (`result`, spec §7, and the upload to follow), the receipts queue makes one receipt per PDF with live progress',
      body: receiptUploadFields,
      multipart: {
        area: 'receipts/uploads',
        fileField: ['file'],
        maxFileBytes: Math.min(ctx.config.uploads.maxBytes, RECEIPT_UPLOAD_MAX_BYTES),
        maxFiles: 1,
        allowedExtensions: RECEIPT_EXTENSIONS,
        extensionError: 'wrong_receipt_type',
      },
      response: receiptUploadResponse,
      async handler({ files }, http) {
        const actor = http.actor();
        let row;
        try {
          row = await submitReceipts(ctx, actor, files[0]);
        } catch (error) {
          // Refused before the row was committed: nothing stored stays orphaned.
          await Promise.allSettled(files.map((f) => ctx.storage.delete(f.key)));
          throw error;
        }
        http.log.info({ event: 'receipt_upload_submitted', uploadId: row.id, by: actor.userId }, 'receipt upload submitted');
        return { success: true as const, result: true, upload: toReceiptUploadDto(row) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/recepisse',
      summary: 'The receipts the caller may see (its cabinets and client codes, its own uploads; all for an admin): searched by reference or file name, sorted and paged in the database',
      query: receiptListQuery,
      response: receiptListResponse,
      async handler({ query }, http) {
        return { success: true as const, ...(await listReceipts(ctx, http.actor(), query)) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/recepisse/uploads',
      summary: "The caller's receipt uploads, newest first: state, progress, receipts made and entries refused",
      query: receiptUploadsQuery,
      response: receiptUploadsResponse,
      async handler({ query }, http) {
        return { success: true as const, ...(await listUploads(ctx, http.actor(), query.page, query.limit)) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/recepisse/:id',
      summary: 'One receipt the caller may see (404 otherwise)',
      params: receiptIdParams,
      response: receiptResponse,
      async handler({ params }, http) {
        return { success: true as const, recepisse: (await readReceipt(ctx, http.actor(), { id: params.id })).dto };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/download/recepisse',
      summary: "Downloads a receipt's PDF by its `path` (a key the server issued, found on a receipt the caller may see); anything else is the same 404",
      query: receiptDownloadQuery,
      response: { raw: ['application/pdf'], description: 'The PDF, named in Content-Disposition' },
      async handler({ query: { file_path } }, http) {
        const actor = http.actor();
        // Only keys the server issued, found on a receipt the caller may see; nothing else touches storage.
        const found = isValidKey(file_path) && file_path.startsWith('receipts/') ? await readReceipt(ctx, actor, { key: file_path }).catch(() => undefined) : undefined;
        if (!found) {
          http.log.warn({ event: 'download_denied', kind: 'receipt', userId: actor.userId, pathLength: file_path.length }, 'download refused');
          throw new AppError('not_found');
        }
        let stream;
        try {
          stream = await ctx.storage.get(found.row.storageKey);
        } catch (error) {
          if (error instanceof StorageNotFoundError) throw new AppError('not_found');
          throw error;
        }
        http.res.set('Content-Type', 'application/pdf');
        http.res.set('Content-Disposition', contentDisposition(found.row.fileName));
        await pipeline(stream, http.res);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/receipts/:id/link',
      summary:
        'Staff link by hand a receipt the matcher left unlinked (ambiguous or none) to the patent record it pays, and the year when it is not the record’s own: the year is marked paid on the ledger (source staff, the user kept), in one transaction',
      params: receiptIdParams,
      body: receiptLinkBody,
      response: receiptLinkResponse,
      async handler({ params, body }, http) {
        const actor = http.actor();
        const recepisse = await linkReceipt(ctx, actor, params.id, body);
        http.log.info({ event: 'receipt_linked', receiptId: params.id, patentId: body.patent_id, by: actor.userId }, 'receipt linked by hand');
        return { success: true as const, recepisse };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/brevet_eptane/:id/recepisse',
      summary: "A patent's receipts (the detail modal), newest first; the patent's read rule (404 outside it)",
      params: patentIdParams,
      response: patentReceiptsResponse,
      async handler({ params }, http) {
        return { success: true as const, recepisse: await patentReceipts(ctx, http.actor(), params.id) };
      },
    }),
  ];
}
