import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { asc } from 'drizzle-orm';
import {
  historySearchQuery,
  LEDES_EXTENSIONS,
  LEDES_MAX_FILES,
  ledesDownloadBody,
  ledesUploadFields,
  pageQuery,
} from '@portal/contracts';
import { ledesOffices } from '@portal/db';
import { isValidKey, StorageNotFoundError } from '@portal/storage';
import { FIRST_RESULT_LINE, loadResult, loadRun, toRunDto } from '@portal/jobs';
import type { Request, Response } from 'express';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { receiveMultipart } from '../../http/multipart.ts';
import type { Route } from '../../http/routes.ts';
import { isUuid, parse } from '../../http/validate.ts';
import { canRead, findRunByFilePath, listHistory, submitLedesFiles, waitForRuns } from './service.ts';

const uploadParams = z.object({ type: z.string().max(20), office: z.string().max(20) });
const runIdParam = z.strictObject({ id: z.uuid() });
/** The result is paged by line: `from_line` is the `page.next_line` of the previous page. */
const resultPageQuery = z.object({ from_line: z.coerce.number().int().min(FIRST_RESULT_LINE).max(2 ** 31 - 1).default(FIRST_RESULT_LINE) });
const adminHistoryParam = z.strictObject({ id: z.string().min(1).max(64) });

/** RFC 6266 / 5987: an ASCII fallback and the exact UTF-8 name; no header injection possible. */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\;]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

function sendHistoryPage(res: Response, page: Awaited<ReturnType<typeof listHistory>>) {
  if (!page) return undefined; // the client left: nothing to answer
  if (page.meta.total === 0) {
    res.status(204).end();
    return undefined;
  }
  return { success: true, ...page };
}

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

/** The spec answers 400 'Paramètre 'meta' non fourni.' when the paging parameters are missing. */
function pagingOf(query: unknown) {
  const q = query as Record<string, unknown>;
  if (q.page === undefined || q.limit === undefined) throw new AppError('meta_missing');
  return parse(pageQuery, { page: q.page, limit: q.limit });
}

export function ledesRoutes(ctx: AppContext): Route[] {
  return [
    {
      method: 'GET',
      path: '/ledes/offices',
      async handler() {
        const rows = await ctx.db.select().from(ledesOffices).orderBy(asc(ledesOffices.position), asc(ledesOffices.code));
        return { success: true, offices: rows.map((o) => ({ code: o.code, label_en: o.labelEn, label_fr: o.labelFr })) };
      },
    },
    {
      method: 'POST',
      path: '/ledes/file/:type/:office',
      async handler(req) {
        const params = parse(uploadParams, req.params);
        const { fields, files } = await receiveMultipart(req, {
          storage: ctx.storage,
          area: 'ledes/original',
          fileField: ['file', 'files', 'file[]'],
          maxFileBytes: ctx.config.uploads.maxBytes,
          maxFiles: LEDES_MAX_FILES,
          allowedExtensions: LEDES_EXTENSIONS,
        });
        let body;
        let runs;
        try {
          body = parse(ledesUploadFields, { ...fields, wait: fields.wait ?? req.query.wait });
          // The path segments win; the body copies are what the original client also sent.
          runs = await submitLedesFiles(ctx, req.auth!, {
            files,
            type: params.type !== 'undefined' && params.type ? params.type : body.type,
            office: params.office !== 'undefined' && params.office ? params.office : body.office,
            userId: body.user_id || undefined,
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
        req.log.info({ event: 'ledes_submitted', runs: runs.map((r) => r.id), by: req.auth!.userId }, 'ledes files submitted');
        if (!body.wait) return { success: true, runs: runs.map(toRunDto) };
        const finished = await waitForRuns(ctx, runs.map((r) => r.id), body.wait);
        const done = finished.every((r) => r.state !== 'in_progress');
        return {
          success: true,
          runs: finished.map(toRunDto),
          ...(done ? { ledes: await Promise.all(finished.map((r) => loadResult(ctx.db, r))) } : {}),
        };
      },
    },
    {
      method: 'GET',
      path: '/ledes/runs/:id',
      async handler(req) {
        const { id } = parse(runIdParam, req.params);
        const { from_line } = parse(resultPageQuery, req.query);
        const run = await loadRun(ctx.db, id);
        if (!run || !canRead(req.auth!, run)) throw new AppError('not_found');
        return { success: true, run: toRunDto(run), result: run.state === 'Done' ? await loadResult(ctx.db, run, from_line) : null };
      },
    },
    {
      method: 'POST',
      path: '/ledes/file/download',
      async handler(req, res) {
        const { file_path } = parse(ledesDownloadBody, req.body);
        // Only keys the server issued, found on a run the caller may read; nothing else touches storage.
        const run = isValidKey(file_path) ? await findRunByFilePath(ctx, file_path) : undefined;
        if (!run || !canRead(req.auth!, run)) {
          req.log.warn({ event: 'download_denied', userId: req.auth!.userId, pathLength: file_path.length }, 'download refused');
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
        res.set('Content-Type', treated ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : 'application/octet-stream');
        res.set('Content-Disposition', contentDisposition(filename));
        await pipeline(stream, res);
        return undefined;
      },
    },
    {
      method: 'GET',
      path: '/historique',
      async handler(req, res) {
        const { page, limit } = pagingOf(req.query);
        return sendHistoryPage(res, await listHistory(ctx, { ownerId: req.auth!.userId, onlyShared: true }, page, limit, clientGone(req, res)));
      },
    },
    {
      method: 'GET',
      path: '/searchHistorique',
      async handler(req, res) {
        const q = req.query as Record<string, unknown>;
        if (q.page === undefined || q.limit === undefined) throw new AppError('meta_missing');
        const { search_query, page, limit } = parse(historySearchQuery, req.query);
        const filter = req.auth!.isAdmin ? { onlyShared: false } : { ownerId: req.auth!.userId, onlyShared: true };
        return sendHistoryPage(res, await listHistory(ctx, { ...filter, search: search_query.trim() || undefined }, page, limit, clientGone(req, res)));
      },
    },
    {
      method: 'GET',
      path: '/historique/admin/:id',
      async handler(req, res) {
        const { id } = parse(adminHistoryParam, req.params);
        const { page, limit } = pagingOf(req.query);
        // The original client passes the admin's own id for "everyone"; another user's id narrows to that user.
        const everyone = id === 'all' || id === req.auth!.userId;
        if (!everyone && !isUuid(id)) throw new AppError('not_found');
        return sendHistoryPage(res, await listHistory(ctx, everyone ? { onlyShared: false } : { ownerId: id, onlyShared: false }, page, limit, clientGone(req, res)));
      },
    },
  ];
}
