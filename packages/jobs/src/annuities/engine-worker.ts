/**
 * The worker-thread side of `runAnnuityEngine`: guards, reads and evaluates the workbook with the
 * annuities engine, posts rows in batches (each batch waits for the main thread's ack, so the
 * database sets the pace) and streams the export back with a byte window.
 */
import { readFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import type { MessagePort } from 'node:worker_threads';
import { DatabasePort } from '@portal/db/thread-port';
import {
  evaluateRow,
  ExportWriter,
  formatIsoDate,
  parseIsoDate,
  readSpreadsheet,
  ymdFromDay,
  type Day,
  type RowEvaluation,
  type SheetInfo,
  type SheetRow,
} from '@portal/annuities';
import { serializeError } from '../ledes/engine-protocol.ts';
import { serveRuns } from '../shared-thread.ts';
import { threadOutput } from '../thread-io.ts';
import { isPacked, packPatents, type PackedBatch, type PackedPatents } from './packed-rows.ts';
import { scheduleFields } from './schedule-fields.ts';
import type { AnnuityThreadData, AnnuityThreadRequest, CheckCounts, FromAnnuityThread, PatentOverride, PatentRecord, ToAnnuityThread } from './protocol.ts';

/** Row batches of a check the main thread may still be storing while this thread reads on. */
const ROWS_WINDOW = 4;

const iso = (d: Day | null | undefined) => (d === null || d === undefined ? null : formatIsoDate(d));

function record(index: number, row: SheetRow, ev: RowEvaluation): PatentRecord {
  const s = ev.schedule;
  const reasons = [...new Set(ev.reasons)];
  const fields = [row.publication, row.application, row.reference, row.title, row.country];
  return {
    rowIndex: index,
    sheet: row.sheet,
    rowNumber: row.rowNumber,
    numPublication: row.publication,
    numDepot: row.application,
    reference: row.reference,
    nom: row.title,
    pays: row.country,
    payeur: row.payer,
    url: ev.url,
    publie: ev.publication?.normalised ?? null,
    office: ev.office,
    origin: ev.origin,
    ...scheduleFields(s),
    dateDepot: iso(row.filingDate),
    moisDateDepot: s === null ? (row.filingDate === null ? null : ymdFromDay(row.filingDate).month) : ymdFromDay(s.filing).month,
    reasons,
    flags: s ? [...s.flags] : [],
    commentaire: row.comment,
    searchText: fields.filter((f) => f !== null).join('\u0001').toLowerCase(),
  };
}

/** One run, on its own message port: rows go out in acked batches (or straight to the database), export bytes within a byte window. */
async function serve(port: MessagePort, data: AnnuityThreadData, databasePort: MessagePort | undefined): Promise<void> {
  const post = (message: FromAnnuityThread, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  /** Waiters of the batches sent, in order: the main thread stores (and acks) them one after another. */
  const rowsAcks: Array<{ resolve(overrides: Array<PatentOverride | null> | undefined): void; reject(error: Error): void }> = [];
  let abandoned: Error | null = null;
  const output = threadOutput((chunk) => post({ type: 'xlsx', chunk }, [chunk.buffer as ArrayBuffer]));
  const out = output.out;
  port.on('message', (message: ToAnnuityThread) => {
    if (message.type === 'rows-ack') rowsAcks.shift()?.resolve(message.overrides);
    else output.ack(message.bytes);
  });
  // The main thread gave the run up (a batch it could not store, a crash of its caller): stop here rather
  // than wait for answers that will not come, holding the workbook in this shared thread.
  port.once('close', () => {
    abandoned = new Error('annuity run abandoned by the main thread');
    for (const waiter of rowsAcks.splice(0)) waiter.reject(abandoned);
    output.abort(abandoned);
  });
  // Decision 232: a check on the embedded database stores its statements on the database thread's port itself.
  const store = databasePort && data.store ? { ...data.store, database: new DatabasePort(databasePort) } : null;
  /** Batches sent to the database thread and not yet settled: a failed run waits for them (none left running). */
  const inFlight = new Set<Promise<void>>();
  try {
    await check(data, out, post, (rows) => {
      if (abandoned) return Promise.reject(abandoned);
      if (store && isPacked(rows)) {
        // The main thread hears the count only.
        const settled = Promise.allSettled(rows.statements.map((s) => store.database.run(store.sql, [store.fileId, ...s.columns])));
        const tracked: Promise<void> = settled.then(() => {
          inFlight.delete(tracked);
        });
        inFlight.add(tracked);
        return settled.then((results) => {
          const failed = results.find((r) => r.status === 'rejected');
          if (failed) throw failed.reason;
          if (abandoned) throw abandoned;
          post({ type: 'stored', rows: rows.length });
          return undefined;
        });
      }
      const acked = new Promise<Array<PatentOverride | null> | undefined>((resolve, reject) => rowsAcks.push({ resolve, reject }));
      post({ type: 'rows', rows });
      return acked;
    });
  } catch (error) {
    await Promise.all(inFlight);
    post({ type: 'failed', error: serializeError(error) });
  } finally {
    store?.database.close();
    port.close();
  }
}

async function check(
  data: AnnuityThreadData,
  out: Writable,
  post: (message: FromAnnuityThread) => void,
  sendRows: (rows: PatentRecord[] | PackedBatch) => Promise<Array<PatentOverride | null> | undefined>,
): Promise<void> {
  const today = parseIsoDate(data.today);
  if (today === null) throw new Error(`bad reference date ${data.today}`);
  const writer = new ExportWriter(out);
  const colours: CheckCounts['colours'] = { ok: 0, nok: 0, orange: 0, no_date: 0 };
  let index = 0;
  let pending: Array<{ row: SheetRow; ev: RowEvaluation }> = [];
  let batch: PatentRecord[] = [];
  /**
   * A check given the statements' size packs its rows a statement at a time (issue 28): a row's objects live
   * for at most one statement's rows (100 on PGlite) and its export cells are written at once, so a batch's
   * rows are not kept until the batch is sent (long enough for V8 to promote all of them to the old generation).
   */
  const packing = data.mode === 'check' && data.statementRows !== undefined && data.statementRows > 0;
  let statements: PackedPatents[] = [];
  let batchRows = 0;
  /** Index of the comment column of the current sheet, or -1 when the export adds one. */
  let commentIndex = -1;
  const exporting = data.mode === 'export';

  /** Check mode: batches sent and not yet stored, oldest first (the export needs no answer from them). */
  const unacked: Array<Promise<unknown>> = [];
  const flush = async () => {
    if (packing) {
      if (batch.length > 0) statements.push(packPatents(batch));
      batch = [];
      if (batchRows === 0) return;
      const sent: PackedBatch = { packed: true, length: batchRows, statements };
      statements = [];
      batchRows = 0;
      // Array literals cross the threads, not row objects; the database stores up to ROWS_WINDOW batches while this reads on.
      const acked = sendRows(sent);
      acked.catch(() => {}); // awaited below; a failure also fails the run on the main side
      unacked.push(acked);
      if (unacked.length >= ROWS_WINDOW) await unacked.shift();
      return;
    }
    if (batch.length === 0) return;
    const rows = batch;
    batch = [];
    const written = pending;
    pending = [];
    let overrides: Array<PatentOverride | null> | undefined;
    if (exporting) {
      // A rewrite writes each row with the edits stored for it: wait for them.
      overrides = await sendRows(rows);
    } else {
      // A check goes on reading while the database stores up to ROWS_WINDOW batches (backpressure past that).
      const acked = sendRows(rows);
      acked.catch(() => {}); // awaited below; a failure also fails the run on the main side
      unacked.push(acked);
      if (unacked.length >= ROWS_WINDOW) await unacked.shift();
    }
    for (let i = 0; i < written.length; i++) {
      const { ev } = written[i]!;
      let { row } = written[i]!;
      const o = overrides?.[i] ?? null;
      if (o !== null) {
        const cells = [...row.cells];
        if (commentIndex >= 0) cells[commentIndex] = o.commentaire;
        row = { ...row, cells };
      }
      if (exporting && commentIndex < 0) row = { ...row, cells: [...row.cells, o?.commentaire ?? row.comment] };
      // An edited row shows what the portal stores for it (the screens' values), not a new computation.
      await writer.addRow(row, ev, o ?? undefined);
    }
  };

  const { input } = data;
  // The reader needs the whole workbook (a zip's central directory is at its end); read here, it is held by this thread only.
  const bytes = input instanceof Uint8Array ? Buffer.from(input.buffer, input.byteOffset, input.byteLength) : await readFile(input.path);
  const read = await readSpreadsheet(bytes, data.fileName, {
    expected: (rows: number) => post({ type: 'expected', rows }),
    sheet: async (info: SheetInfo) => {
      await flush();
      commentIndex = info.columns.get('comment') ?? -1;
      // A rewrite shows the users' comments: a sheet without a comment column gets one.
      await writer.startSheet(exporting && commentIndex < 0 ? { ...info, headers: [...info.headers, 'Commentaire / Comment'] } : info);
    },
    row: async (row: SheetRow) => {
      const ev = evaluateRow(row, today);
      const r = record(index++, row, ev);
      colours[r.colour]++;
      batch.push(r);
      if (packing) {
        batchRows++;
        if (batch.length >= data.statementRows!) {
          statements.push(packPatents(batch));
          batch = [];
        }
        // A check's export needs nothing from the database: the row is written now.
        await writer.addRow(row, ev);
        if (batchRows >= data.batchSize) await flush();
        return;
      }
      pending.push({ row, ev });
      if (batch.length >= data.batchSize) await flush();
    },
  });
  if (!read.ok) {
    post({ type: 'refused', reason: read.reason });
    return;
  }
  await flush();
  for (const acked of unacked.splice(0)) await acked;
  if (index === 0) {
    post({ type: 'refused', reason: 'no_rows' });
    return;
  }
  await writer.finish();
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  post({ type: 'done', counts: { rows: index, colours } });
}

serveRuns((request: AnnuityThreadRequest) => serve(request.port, request.data, request.database));
