import { pipeline } from 'node:stream/promises';
import {
  PATENT_IMPORT_EXTENSIONS,
  PATENT_IMPORT_MAX_BYTES,
  patentExportDownloadQuery,
  patentExportIdParams,
  patentExportsResponse,
  patentImportIdParams,
  patentImportResponse,
  patentImportsResponse,
  patentImportUploadFields,
  patentJobTriggerResponse,
  patentPagedQuery,
  patentSyncBody,
  patentSyncResponse,
  patentTriggerBody,
} from '@portal/contracts';
import { StorageNotFoundError } from '@portal/storage';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { defineRoute, type Route } from '../../http/routes.ts';
import { checkSyncKey, findExport, listExports, listImports, readImport, submitImport, syncPatents, triggerExport, triggerReminders } from './service.ts';
import { XLSX_CONTENT_TYPE } from '@portal/xlsx';


/** RFC 6266 / 5987: an ASCII fallback and the exact UTF-8 name; no header injection possible. */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\;]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** Top-level paths (`/patent_imports`, `/patent_exports`), away from `/brevet_eptane/:id`; the sync is a PUT, which that route is not. */
export function patentPortfolioRoutes(ctx: AppContext): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/patent_imports',
      summary: "Uploads the back office's portfolio export (multipart `file`, .xlsx or .csv, at most 25 MiB); answers at once, the patent-import queue upserts it by idagenda with live progress",
      body: patentImportUploadFields,
      multipart: {
        area: 'patent-imports',
        fileField: ['file'],
        maxFileBytes: Math.min(ctx.config.uploads.maxBytes, PATENT_IMPORT_MAX_BYTES),
        maxFiles: 1,
        allowedExtensions: PATENT_IMPORT_EXTENSIONS,
        extensionError: 'wrong_import_type',
      },
      response: patentImportResponse,
      async handler({ files }, http) {
        const actor = http.actor();
        let row;
        try {
          row = await submitImport(ctx, actor, files[0]);
        } catch (error) {
          // Refused before the row was committed: nothing stored stays orphaned.
          await Promise.allSettled(files.map((f) => ctx.storage.delete(f.key)));
          throw error;
        }
        http.log.info({ event: 'patent_import_submitted', importId: row.id, by: actor.userId }, 'patent import submitted');
        return { success: true as const, patent_import: await readImport(ctx, row.id) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/patent_imports',
      summary: 'The portfolio imports, newest first, paged: state, progress, counts (inserted, updated, unchanged, rejected) and the first refused rows',
      query: patentPagedQuery,
      response: patentImportsResponse,
      async handler({ query }) {
        return { success: true as const, ...(await listImports(ctx, query)) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/patent_imports/:id',
      summary: 'One portfolio import',
      params: patentImportIdParams,
      response: patentImportResponse,
      async handler({ params }) {
        return { success: true as const, patent_import: await readImport(ctx, params.id) };
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/brevet_eptane/sync',
      summary:
        "The back office integration upserts up to 1,000 patents by idagenda (Authorization: Bearer <PATENT_SYNC_API_KEY>, no session; a 404 when no key is configured): the import's checks and computed fields; unchanged rows are not written; instruction changes are audited with source sync",
      bearer: 'patentSync',
      body: patentSyncBody,
      response: patentSyncResponse,
      async handler({ body }, http) {
        checkSyncKey(ctx, http.req.get('authorization'));
        const result = await syncPatents(ctx, body.brevet_eptane);
        http.log.info({ event: 'patent_sync', rows: body.brevet_eptane.length, inserted: result.inserted, updated: result.updated, rejected: result.rejected }, 'patent sync');
        return { success: true as const, ...result };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/patent_exports',
      summary: 'Runs the export of validated instructions now (the patent-export queue; it also runs every hour): new batches appear in GET /patent_exports',
      body: patentTriggerBody,
      response: patentJobTriggerResponse,
      async handler(_input, http) {
        await triggerExport(ctx);
        http.log.info({ event: 'patent_export_triggered', by: http.actor().userId }, 'patent export triggered');
        return { success: true as const, queued: true as const };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/patent_exports',
      summary: 'The export batches sent to the back office, newest first, paged',
      query: patentPagedQuery,
      response: patentExportsResponse,
      async handler({ query }) {
        return { success: true as const, ...(await listExports(ctx, query)) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/patent_exports/:id/download',
      summary: "Downloads an export batch's file, xlsx (default) or csv",
      params: patentExportIdParams,
      query: patentExportDownloadQuery,
      response: { raw: [XLSX_CONTENT_TYPE, 'text/csv'], description: 'The batch file, named in Content-Disposition' },
      async handler({ params, query }, http) {
        const batch = await findExport(ctx, params.id);
        const key = query.format === 'csv' ? batch.csvKey : batch.xlsxKey;
        let stream;
        try {
          stream = await ctx.storage.get(key);
        } catch (error) {
          if (error instanceof StorageNotFoundError) throw new AppError('not_found');
          throw error;
        }
        http.res.set('Content-Type', query.format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_CONTENT_TYPE);
        http.res.set('Content-Disposition', contentDisposition(`${batch.name}.${query.format}`));
        await pipeline(stream, http.res);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/patent_reminders',
      summary: "Runs today's reminders to the agents now (the patent-reminders queue; it also runs every day): a reminder already sent is not sent again",
      body: patentTriggerBody,
      response: patentJobTriggerResponse,
      async handler(_input, http) {
        await triggerReminders(ctx);
        http.log.info({ event: 'patent_reminders_triggered', by: http.actor().userId }, 'patent reminders triggered');
        return { success: true as const, queued: true as const };
      },
    }),
  ];
}
