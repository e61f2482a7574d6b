import { pipeline } from 'node:stream/promises';
import { asc } from 'drizzle-orm';
import {
  adminHistoryParams,
  historyPageQuery,
  historyPageResponse,
  historySearchQuery,
  LEDES_EXTENSIONS,
  LEDES_FILE_FIELDS,
  LEDES_MAX_FILES,
  ledesDownloadBody,
  ledesOfficesResponse,
  ledesRunQuery,
  ledesRunResponse,
  ledesUploadFields,
  ledesUploadParams,
  ledesUploadQuery,
  ledesUploadResponse,
  runIdParams,
  type LedesHistorySort,
  type SortOrder,
} from '@portal/contracts';
import type { Locale } from '@portal/i18n';
import { ledesOffices } from '@portal/db';
import { isValidKey, StorageNotFoundError } from '@portal/storage';
import { loadResult, loadRun, sharedThreadEngine, toRunDto } from '@portal/jobs';
import type { Request, Response } from 'express';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { defineRoute, NO_CONTENT, type Route } from '../../http/routes.ts';
import { canRead, findRunByFilePath, listHistory, submitLedesFiles, waitForRuns } from './service.ts';
import { XLSX_CONTENT_TYPE } from '@portal/xlsx';

/** RFC 6266 / 5987: an ASCII fallback and the exact UTF-8 name; no header injection possible. */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\;]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** The spec answers 204 without a body when there is no history at all; nothing goes to a client that left. */
const historyPage = (page: Awaited<ReturnType<typeof listHistory>>) =>
  !page || page.meta.total === 0 ? NO_CONTENT : { success: true as const, ...page };
const EMPTY_HISTORY = 'No history at all for this filter';
/** The validated sort parameters of a history query, with the caller's language for the label columns. */
const sortOf = (query: { sort: LedesHistorySort; order: SortOrder }, locale: Locale) => ({ sort: { column: query.sort, order: query.order }, locale });

/** The original client may send the word 'undefined' in a path segment and the value in the body. */
const segment = (value: string) => (value && value !== 'undefined' ? value : undefined);

/** Aborted when the client goes away before the answer is sent, so no further query is started for it. */
function clientGone(req: Request, res: Response): AbortSignal {
  const controller = new AbortController();
  if (req.socket.destroyed) controller.abort();
  else
    res.once('close', () => {
      if (!res.writableFinished) controller.abort();
    });
  return controller.signal;
}

export function ledesRoutes(ctx: AppContext): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/ledes/offices',
      summary: 'The offices a LEDES file can be checked for',
      response: ledesOfficesResponse,
      async handler() {
        const rows = await ctx.db.select().from(ledesOffices).orderBy(asc(ledesOffices.position), asc(ledesOffices.code));
        return { success: true, offices: rows.map((o) => ({ code: o.code, label_en: o.labelEn, label_fr: o.labelFr })) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/ledes/file/:type/:office',
      summary: 'Uploads LEDES files (multipart); one run per file, answered at once or after `wait` seconds',
      params: ledesUploadParams,
      query: ledesUploadQuery,
      body: ledesUploadFields,
      multipart: {
        area: 'ledes/original',
        fileField: [...LEDES_FILE_FIELDS],
        maxFileBytes: ctx.config.uploads.maxBytes,
        maxFiles: LEDES_MAX_FILES,
        allowedExtensions: LEDES_EXTENSIONS,
        // Embedded, the check runs in this process: its engine thread starts while the file is received (decision 211).
        onBegin: () => {
          if (ctx.queue.driver === 'inline') sharedThreadEngine().warm();
        },
      },
      response: ledesUploadResponse,
      async handler({ params, query, body, files }, http) {
        const actor = http.actor();
        let runs;
        try {
          // The path segments win; the body copies are what the original client also sent.
          runs = await submitLedesFiles(ctx, actor, {
            files,
            type: segment(params.type) ?? body.type,
            office: segment(params.office) ?? body.office,
            userId: body.user_id,
            idClient: body.id_client,
            clientDestinataire: body.client_destinataire,
            sendHistory: body.send_history,
            sendServer: body.send_server,
          });
        } catch (error) {
          // Refused before any run row was committed: nothing stored stays orphaned.
          await Promise.allSettled(files.map((f) => ctx.storage.delete(f.key)));
          throw error;
        }
        http.log.info({ event: 'ledes_submitted', runs: runs.map((r) => r.id), by: actor.userId }, 'ledes files submitted');
        const wait = body.wait ?? query.wait;
        if (!wait) return { success: true, runs: runs.map(toRunDto) };
        const finished = await waitForRuns(ctx, runs.map((r) => r.id), wait);
        const done = finished.every((r) => r.state !== 'in_progress');
        return {
          success: true,
          runs: finished.map(toRunDto),
          ...(done ? { ledes: await Promise.all(finished.map((r) => loadResult(ctx.db, r, undefined, ctx.config.ledes.resultPageFindings))) } : {}),
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/ledes/runs/:id',
      summary: 'One run, with its result once done: one\'s own, or any for an admin',
      params: runIdParams,
      query: ledesRunQuery,
      response: ledesRunResponse,
      async handler({ params, query }, http) {
        const run = await loadRun(ctx.db, params.id);
        if (!run || !canRead(http.actor(), run)) throw new AppError('not_found');
        return { success: true, run: toRunDto(run), result: run.state === 'Done' ? await loadResult(ctx.db, run, query.from_line, ctx.config.ledes.resultPageFindings) : null };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/ledes/file/download',
      summary: 'Downloads an original or treated file of a run the caller may read',
      body: ledesDownloadBody,
      response: { raw: ['application/octet-stream', XLSX_CONTENT_TYPE], description: 'The file, named in Content-Disposition' },
      async handler({ body: { file_path } }, http) {
        const actor = http.actor();
        // Only keys the server issued, found on a run the caller may read; nothing else touches storage.
        const run = isValidKey(file_path) ? await findRunByFilePath(ctx, file_path) : undefined;
        if (!run || !canRead(actor, run)) {
          http.log.warn({ event: 'download_denied', userId: actor.userId, pathLength: file_path.length }, 'download refused');
          throw new AppError('not_found');
        }
        const treated = file_path === run.treatedKey;
        const filename = treated ? `${run.originalName.replace(/\.[^.]*$/, '')}_treated.xlsx` : run.originalName;
        let stream;
        try {
          stream = await ctx.storage.get(file_path);
        } catch (error) {
          if (error instanceof StorageNotFoundError) throw new AppError('not_found');
          throw error;
        }
        http.res.set('Content-Type', treated ? XLSX_CONTENT_TYPE : 'application/octet-stream');
        http.res.set('Content-Disposition', contentDisposition(filename));
        await pipeline(stream, http.res);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/historique',
      summary: "The caller's history, newest first",
      query: historyPageQuery,
      response: historyPageResponse,
      noContent: EMPTY_HISTORY,
      handler: async ({ query }, http) =>
        historyPage(
          await listHistory(ctx, { ownerId: http.actor().userId, onlyShared: true, ...sortOf(query, http.locale) }, query.page, query.limit, clientGone(http.req, http.res)),
        ),
    }),
    defineRoute({
      method: 'GET',
      path: '/searchHistorique',
      summary: "Searches the history: everyone's for an admin, one's own otherwise",
      query: historySearchQuery,
      response: historyPageResponse,
      noContent: EMPTY_HISTORY,
      async handler({ query }, http) {
        const actor = http.actor();
        const filter = actor.isAdmin ? { onlyShared: false } : { ownerId: actor.userId, onlyShared: true };
        const search = query.search_query.trim() || undefined;
        return historyPage(await listHistory(ctx, { ...filter, ...(search ? { search } : {}), ...sortOf(query, http.locale) }, query.page, query.limit, clientGone(http.req, http.res)));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/historique/admin/:id',
      summary: "The admin log: everyone's files ('all' or the admin's own id), or one user's",
      params: adminHistoryParams,
      query: historyPageQuery,
      response: historyPageResponse,
      noContent: EMPTY_HISTORY,
      async handler({ params, query }, http) {
        // The original client passes the admin's own id for "everyone"; another user's id narrows to that user.
        const everyone = params.id === 'all' || params.id === http.actor().userId;
        const filter = everyone ? { onlyShared: false } : { ownerId: params.id, onlyShared: false };
        return historyPage(await listHistory(ctx, { ...filter, ...sortOf(query, http.locale) }, query.page, query.limit, clientGone(http.req, http.res)));
      },
    }),
  ];
}
