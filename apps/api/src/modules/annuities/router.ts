import { pipeline } from 'node:stream/promises';
import {
  ANNUITY_EXTENSIONS,
  annuityBulkCommentBody,
  annuityBulkCommentResponse,
  annuityDownloadQuery,
  annuityFileCommentBody,
  annuityFilesQuery,
  annuityFilesResponse,
  annuityIdParams,
  annuityPatentEditBody,
  annuityPatentEditResponse,
  annuityPatentsQuery,
  annuityPatentsResponse,
  annuityResearchQuery,
  annuityResearchResponse,
  annuityUploadFields,
  annuityUploadResponse,
} from '@portal/contracts';
import { DEFAULT_LIMITS } from '@portal/annuities/core';
import { toFileDto } from '@portal/jobs';
import { isValidKey, StorageNotFoundError } from '@portal/storage';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { defineRoute, type Route } from '../../http/routes.ts';
import { canRead, commentFilePatents, commentPatents, editPatent, exportBody, findFileByPath, listFiles, listPatents, readableFile, research, submitAnnuityFile, waitForFreshExport, type DownloadBody } from './service.ts';
import { XLSX_CONTENT_TYPE } from '@portal/xlsx';

/** A download of an export that misses the latest edits waits this long for the queue's rewrite, then answers 409. */
export const STALE_EXPORT_WAIT_MS = 10_000;

/** RFC 6266 / 5987: an ASCII fallback and the exact UTF-8 name; no header injection possible. */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\;]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

export function annuitiesRoutes(ctx: AppContext): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/brevets/annuite',
      summary: 'Uploads an annuity spreadsheet (multipart `file`, `title`); answers at once with the file, checked by the annuities queue',
      body: annuityUploadFields,
      multipart: {
        area: 'annuities/import',
        fileField: ['file'],
        // The engine's own cap: a larger workbook is refused (413) before it is stored whole.
        maxFileBytes: Math.min(ctx.config.uploads.maxBytes, DEFAULT_LIMITS.maxBytes),
        maxFiles: 1,
        allowedExtensions: ANNUITY_EXTENSIONS,
      },
      response: annuityUploadResponse,
      async handler({ body, files }, http) {
        const actor = http.actor();
        let file;
        try {
          file = await submitAnnuityFile(ctx, actor, files[0], body.title ?? body.file_name);
        } catch (error) {
          // Refused before the row was committed: nothing stored stays orphaned.
          await Promise.allSettled(files.map((f) => ctx.storage.delete(f.key)));
          throw error;
        }
        http.log.info({ event: 'annuity_file_submitted', fileId: file.id, by: actor.userId }, 'annuity file submitted');
        return { success: true as const, _id: file.id, is_done: file.state };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/annuite/files',
      summary: "The caller's annuity files (everyone's, with the owner, for an admin): searched, sorted and paged in the database",
      query: annuityFilesQuery,
      response: annuityFilesResponse,
      async handler({ query }, http) {
        return { success: true as const, ...(await listFiles(ctx, http.actor(), query, http.locale)) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/annuite/files/download',
      summary: 'Downloads the import or (once Done) the export of a file the caller may read; a stale export waits for its rewrite, then 409',
      query: annuityDownloadQuery,
      response: { raw: ['application/octet-stream', XLSX_CONTENT_TYPE], description: 'The file, named in Content-Disposition' },
      async handler({ query: { file_path } }, http) {
        const actor = http.actor();
        // Only keys the server issued, found on a file the caller may read; nothing else touches storage.
        let file = isValidKey(file_path) ? await findFileByPath(ctx, file_path) : undefined;
        const isExport = file !== undefined && file_path === file.exportKey;
        if (!file || !canRead(actor, file) || (isExport && file.state !== 'Done')) {
          http.log.warn({ event: 'download_denied', userId: actor.userId, pathLength: file_path.length }, 'download refused');
          throw new AppError('not_found');
        }
        if (isExport && file.exportStale) {
          file = await waitForFreshExport(ctx, file, STALE_EXPORT_WAIT_MS);
          if (file.exportStale) {
            http.res.set('Retry-After', '5');
            throw new AppError('export_pending');
          }
        }
        const open = async () => {
          try {
            return await ctx.storage.get(file_path);
          } catch (error) {
            if (error instanceof StorageNotFoundError) throw new AppError('not_found');
            throw error;
          }
        };
        // The export as this reader's rows show it: the ledger's colours (decision 234).
        let body: DownloadBody;
        if (isExport) body = await exportBody(ctx, actor, file, open);
        else {
          const stored = await open();
          body = { send: (res) => pipeline(stored, res) };
        }
        http.res.set('Content-Type', isExport ? XLSX_CONTENT_TYPE : 'application/octet-stream');
        http.res.set('Content-Disposition', contentDisposition(isExport ? file.exportName : file.importName));
        await body.send(http.res);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/brevets/file/:id',
      summary: 'The patents of a Done file: page, limit (30, 50, 100 or all), search, sort and order, colour filter, all in the database',
      params: annuityIdParams,
      query: annuityPatentsQuery,
      response: annuityPatentsResponse,
      async handler({ params, query }, http) {
        const file = await readableFile(ctx, http.actor(), params.id, { done: true });
        const { counts, ...page } = await listPatents(ctx, file, query, http.actor());
        // The counts as this reader's rows show them (the ledger's colours, decision 233).
        return { success: true as const, file: { ...toFileDto(file, http.locale), counts }, ...page };
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/brevets/annuite/:id',
      summary: 'Edits the previous and next annuity dates, the previous number and the next deadline of a patent; the colour is recomputed',
      params: annuityIdParams,
      body: annuityPatentEditBody,
      response: annuityPatentEditResponse,
      async handler({ params, body }, http) {
        return { success: true as const, patent: await editPatent(ctx, http.actor(), params.id, body) };
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/brevets/annuites/many',
      summary: 'Sets one comment on several patents; any id the caller may not edit makes the whole call a 404 with nothing changed',
      body: annuityBulkCommentBody,
      response: annuityBulkCommentResponse,
      async handler({ body }, http) {
        const actor = http.actor();
        const updated = await commentPatents(ctx, actor, body.ids, body.comment);
        http.log.info({ event: 'annuity_bulk_comment', by: actor.userId, updated }, 'bulk comment applied');
        return { success: true as const, updated };
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/brevets/file/:id/comment',
      summary:
        "Sets one comment on every patent of a Done file the caller may edit that the search and colour filter keep, but the ids in `except` (the 'All' view's select-all)",
      params: annuityIdParams,
      body: annuityFileCommentBody,
      response: annuityBulkCommentResponse,
      async handler({ params, body }, http) {
        const actor = http.actor();
        const updated = await commentFilePatents(ctx, actor, params.id, body);
        http.log.info({ event: 'annuity_bulk_comment', by: actor.userId, fileId: params.id, updated, byFilter: true }, 'bulk comment applied');
        return { success: true as const, updated };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/annuite/research',
      summary: "Searches the patents of the caller's Done files (everyone's for an admin) by number, reference or name",
      query: annuityResearchQuery,
      response: annuityResearchResponse,
      async handler({ query }, http) {
        return { success: true as const, ...(await research(ctx, http.actor(), query.q, query.page, query.limit)) };
      },
    }),
  ];
}
