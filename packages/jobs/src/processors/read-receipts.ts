import type { Readable } from 'node:stream';
import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { RECEIPT_KEPT_REFUSALS, RECEIPT_UPLOAD_MAX_BYTES } from '@portal/contracts';
import { afterBulkWrite, patentRecords, receiptUploads, receipts, roles, userCabinets, userRoles, users, type Database, type ReceiptMatchDetail } from '@portal/db';
import type { Logger } from '@portal/logger';
import type { Processor } from '@portal/queue';
import { UnrecoverableJobError } from '@portal/queue';
import type { RealtimePublisher } from '@portal/realtime';
import type { Storage } from '@portal/storage';
import { receiptUploadKind } from '../receipts/kind.ts';
import { isComplete, type ReceiptReferences } from '../receipts/references.ts';
import { lookupKeys, matchReceipt, type MatchCandidate, type ReceiptMatch } from '../receipts/matcher.ts';
import { PATENT_KEY_SQL, writeLedger } from '../ledger/write.ts';
import { readUploadInThread, type ReceiptVisitor } from '../receipts/thread.ts';
import { loadReceiptUpload } from '../receipts/uploads.ts';
import { publishReceiptUpload } from '../kinds/receipts.ts';
import { receiptRunKind } from '../kinds/receipts.ts';
import { receiptStorageKey } from '../receipts/objects.ts';

export { deleteUnrecordedObjects, receiptStorageKey } from '../receipts/objects.ts';

export interface ReadReceiptsDeps {
  db: Database;
  storage: Storage;
  realtime: RealtimePublisher;
  logger: Logger;
  clock?: { now(): Date };
}

/** Progress goes to the uploader and touches the row (the heartbeat) at least this often. */
export const RECEIPTS_PROGRESS_MS = 500;
export const RECEIPT_ERROR_CODES = { failed: 'processing_failed', interrupted: 'interrupted', malformed: 'malformed_archive' } as const;


async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > RECEIPT_UPLOAD_MAX_BYTES) throw new UnrecoverableJobError('receipt upload larger than any accepted upload');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}


/** Deletes the object unless a receipt row points to it (another attempt's); a failed check keeps it. */
async function deleteUnlessRecorded(deps: Pick<ReadReceiptsDeps, 'db' | 'storage'>, key: string): Promise<void> {
  const [recorded] = await deps.db.select({ id: receipts.id }).from(receipts).where(eq(receipts.storageKey, key)).limit(1);
  if (!recorded) await deps.storage.delete(key);
}

/**
 * The upload ends in Error with a reason (its content refused, or the last attempt failed); published.
 * The objects its attempts stored without writing their rows (an attempt killed between the two)
 * are deleted (`deleteUnrecordedObjects`, the run kind's `afterError`).
 */
export async function markReceiptUploadFailed(deps: Pick<ReadReceiptsDeps, 'db' | 'storage' | 'realtime' | 'clock' | 'logger'>, uploadId: string, errorCode: string): Promise<void> {
  await receiptRunKind.fail(deps, uploadId, errorCode);
}


/** The uploader's reach, as the patents' read rule (decision 121): admins any patent, others their cabinets and client codes. */
async function uploaderScope(db: Database, ownerId: string | null) {
  if (!ownerId) return { all: false, cabinetIds: [] as string[], codes: [] as string[] };
  const [admin] = await db
    .select({ id: roles.id })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(and(eq(userRoles.userId, ownerId), eq(roles.slug, 'admin')))
    .limit(1);
  const [user] = await db.select({ code: users.code }).from(users).where(eq(users.id, ownerId));
  const cabinetRows = await db.select({ cabinetId: userCabinets.cabinetId }).from(userCabinets).where(eq(userCabinets.userId, ownerId)).orderBy(asc(userCabinets.cabinetId));
  return { all: admin !== undefined, cabinetIds: cabinetRows.map((r) => r.cabinetId), codes: user?.code ?? [] };
}

/**
 * Makes an upload into receipts: the file read in a worker thread (`receipts/read.ts`), each PDF
 * stored under the key of its entry (`receiptStorageKey`, never the entry's name), its row written with the patent
 * record whose client reference matches (within what the uploader may see), entries refused listed.
 * A rerun (retry) finds the receipts already written (unique upload + entry) and does not store them
 * twice. A refused upload (zip bomb, not a zip) ends Error and keeps no receipt of it.
 */
export function createReadReceiptsProcessor(deps: ReadReceiptsDeps): Processor<'receipts'> {
  const now = () => deps.clock?.now() ?? new Date();
  return async ({ uploadId }, job) => {
    const found = await loadReceiptUpload(deps.db, uploadId);
    if (!found) throw new UnrecoverableJobError(`receipt upload ${uploadId} does not exist`);
    if (found.state !== 'in_progress') return;
    const [started] = await deps.db
      .update(receiptUploads)
      .set({ startedAt: now(), attempts: sql`${receiptUploads.attempts} + 1`, entriesDone: 0, receiptsCreated: 0, refusedCount: 0, refused: [], updatedAt: now() })
      .where(and(eq(receiptUploads.id, uploadId), eq(receiptUploads.state, 'in_progress')))
      .returning();
    if (!started) return;
    publishReceiptUpload(deps.realtime, started);

    const begun = performance.now();
    const bytes = await readAll(await deps.storage.get(started.storageKey));
    const kind = receiptUploadKind(bytes);
    if (kind === null) {
      await markReceiptUploadFailed(deps, uploadId, RECEIPT_ERROR_CODES.malformed);
      return;
    }
    const scope = await uploaderScope(deps.db, started.ownerId);
    const written = new Map((await deps.db.select({ entryIndex: receipts.entryIndex }).from(receipts).where(eq(receipts.uploadId, uploadId))).map((r) => [r.entryIndex, true]));

    let entriesTotal: number | null = null;
    let entriesDone = 0;
    let receiptsCreated = 0;
    let refusedCount = 0;
    const refused: { entry: string; code: string }[] = [];
    const beating: { current: Promise<void> | null } = { current: null };
    const beat = async () => {
      const [progressed] = await deps.db
        .update(receiptUploads)
        .set({ entriesDone, entriesTotal, receiptsCreated, refusedCount, refused, updatedAt: now() })
        .where(and(eq(receiptUploads.id, uploadId), eq(receiptUploads.state, 'in_progress')))
        .returning();
      if (progressed) publishReceiptUpload(deps.realtime, progressed);
      await job.updateProgress(entriesDone).catch(() => {});
    };
    const timer = setInterval(() => {
      beating.current ??= beat()
        .catch((error: unknown) => deps.logger.warn({ err: error, uploadId }, 'receipt upload progress update failed'))
        .finally(() => (beating.current = null));
    }, RECEIPTS_PROGRESS_MS);

    /**
     * The matcher's candidates (decision 192): the records within the uploader's reach whose search text holds one of
     * the receipt's digit runs or reference tokens, or its labelled references; at most a few hundred.
     */
    const candidatesFor = async (text: string, refs: ReceiptReferences) => {
      const reach: SQL[] = [];
      if (scope.cabinetIds.length > 0) reach.push(inArray(patentRecords.cabinetId, scope.cabinetIds));
      if (scope.codes.length > 0) reach.push(inArray(patentRecords.clientCode, scope.codes));
      if (!scope.all && reach.length === 0) return [];
      const keys = lookupKeys(text);
      const labelled = [refs.referenceClient, refs.referenceInpi].filter((r): r is string => r !== null && r.trim().length >= 3);
      // Every key is a substring of the lower-cased search text (references and numbers): the trigram index reads
      // the few records holding one (a bitmap OR), never every record.
      const likeOf = (key: string) => `%${key.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
      const found: SQL[] = [...keys.digits.slice(0, 50), ...labelled, ...keys.tokens.slice(0, 50)].map((key) => sql`${patentRecords.searchText} like ${likeOf(key)}`);
      if (found.length === 0) return [];
      return deps.db
        .select({
          id: patentRecords.id,
          patentKey: sql<string>`${PATENT_KEY_SQL}`,
          idagenda: patentRecords.idagenda,
          referenceClient: patentRecords.referenceClient,
          referenceCabinet: patentRecords.referenceCabinet,
          numeroDepot: patentRecords.numeroDepot,
          numeroPublication: patentRecords.numeroPublication,
          pays: patentRecords.pays,
          quantieme: patentRecords.quantieme,
          cabinetId: patentRecords.cabinetId,
          clientCode: patentRecords.clientCode,
        })
        .from(patentRecords)
        .where(and(or(...found), scope.all ? undefined : or(...reach)))
        .orderBy(asc(patentRecords.idagenda))
        .limit(300);
    };

    const visitor: ReceiptVisitor = async (message) => {
      job.signal.throwIfAborted();
      if (message.type === 'total') {
        entriesTotal = message.entries;
        return;
      }
      entriesDone++;
      if (message.type === 'refused') {
        refusedCount++;
        if (refused.length < RECEIPT_KEPT_REFUSALS) refused.push({ entry: message.entry, code: message.code });
        return;
      }
      receiptsCreated++;
      if (written.has(message.index)) return;
      const day = now();
      const key = receiptStorageKey(started, message.index);
      const content = Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength);
      await deps.storage.put(key, content, { contentType: 'application/pdf' });
      // Stored, not yet recorded: whatever fails before the row is written takes the object away
      // (a killed process cannot: its retry rewrites the same key, and an upload ending in Error
      // deletes its entries' unrecorded keys).
      try {
        const refs = message.references;
        const candidates = await candidatesFor(message.text, refs);
        const match: ReceiptMatch = matchReceipt(message.text, candidates, { referenceClient: refs.referenceClient, referenceInpi: refs.referenceInpi });
        const patent = match.confidence === 'sure' ? candidates.find((c) => c.id === match.matches[0]!.recordId) : undefined;
        // The receipt and the years it pays, in one transaction: a sure match links and marks each year paid (decision 191).
        const inserted = await deps.db.transaction(async (tx) => {
          const rows = await tx
            .insert(receipts)
            .values({
              uploadId,
              entryIndex: message.index,
              fileName: message.name,
              storageKey: key,
              size: content.length,
              referenceClient: refs.referenceClient,
              referenceInpi: refs.referenceInpi,
              referenceProvider: refs.referenceProvider,
              dateOrdrePaiement: refs.dateOrdrePaiement,
              source: message.source,
              needsCompletion: message.pdfError !== null || !isComplete(refs),
              pdfError: message.pdfError,
              patentId: patent?.id ?? null,
              cabinetId: patent?.cabinetId ?? scope.cabinetIds[0] ?? null,
              clientCode: patent?.clientCode ?? null,
              matchConfidence: match.confidence,
              matchDetail: matchDetail(match, candidates),
              createdAt: day,
            })
            .onConflictDoNothing({ target: [receipts.uploadId, receipts.entryIndex] })
            .returning({ id: receipts.id });
          const receiptId = rows[0]?.id;
          if (receiptId !== undefined && patent !== undefined) {
            await writeLedger(
              tx,
              match.matches.map((m) => ({
                recordId: m.recordId,
                annuityYear: m.year,
                event: { kind: 'receipt' as const, source: 'receipt' as const, receiptId, paidOn: refs.dateOrdrePaiement, amount: m.amount, currency: m.currency },
              })),
              { at: day },
            );
          }
          return rows;
        });
        // Written meanwhile by another attempt: its row keeps the object when it points to the same key.
        if (inserted.length === 0) await deleteUnlessRecorded(deps, key);
      } catch (error) {
        await deleteUnlessRecorded(deps, key).catch((cleanup: unknown) => deps.logger.warn({ err: cleanup, uploadId }, 'receipt object kept after a failed insert; the next attempt rewrites it'));
        throw error;
      }
    };

    let outcome;
    try {
      outcome = await readUploadInThread({ bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), kind, name: started.originalName }, visitor, job.signal);
    } finally {
      clearInterval(timer);
      await beating.current;
    }
    if (!outcome.ok) {
      // Refused as a whole: nothing of it is kept (no half-read archive).
      const made = await deps.db.delete(receipts).where(eq(receipts.uploadId, uploadId)).returning({ key: receipts.storageKey });
      await Promise.allSettled(made.map((r) => deps.storage.delete(r.key)));
      deps.logger.info({ event: 'receipt_upload_refused', uploadId, reason: outcome.code, detail: outcome.detail }, 'receipt upload refused');
      await markReceiptUploadFailed(deps, uploadId, outcome.code);
      return;
    }
    const [finished] = await deps.db
      .update(receiptUploads)
      .set({ state: 'Done', entriesDone, entriesTotal: entriesTotal ?? entriesDone, receiptsCreated, refusedCount, refused, finishedAt: now(), updatedAt: now() })
      .where(and(eq(receiptUploads.id, uploadId), eq(receiptUploads.state, 'in_progress')))
      .returning();
    if (!finished) return;
    deps.logger.info({ event: 'receipt_upload_done', uploadId, receipts: receiptsCreated, refused: refusedCount, ms: Math.round(performance.now() - begun) }, 'receipt upload done');
    publishReceiptUpload(deps.realtime, finished);
    await afterBulkWrite(deps.db, { receipts: receiptsCreated }, deps.logger);
  };
}

/** What the matcher read, kept on the receipt for staff's unlinked queue (decision 198): each patent named, with a snapshot of its references. */
export function matchDetail(match: ReceiptMatch, candidates: readonly (MatchCandidate & { idagenda: string | null })[]): ReceiptMatchDetail {
  const byId = new Map(candidates.map((c) => [c.id, c]));
  return {
    candidates: match.matches.slice(0, 20).map((m) => {
      const c = byId.get(m.recordId);
      return {
        record_id: m.recordId,
        idagenda: c?.idagenda ?? null,
        reference_client: c?.referenceClient ?? null,
        numero_depot: c?.numeroDepot ?? null,
        numero_publication: c?.numeroPublication ?? null,
        pays: c?.pays ?? '',
        year: m.year,
        year_printed: m.yearPrinted,
        amount: m.amount,
        currency: m.currency,
        evidence: [...m.evidence],
        confidence: m.confidence,
      };
    }),
  };
}
