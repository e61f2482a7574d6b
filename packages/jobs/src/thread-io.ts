/** The thread side of a run's traffic with the main thread: its output under a window of acks, and the waits of its loops. */
import { Writable } from 'node:stream';

/** Bytes gathered into one message to the main thread. */
const MESSAGE_BYTES = 256 * 1024;
/** Bytes posted and not yet written by the main thread before the writer waits. */
const WINDOW_BYTES = 4 * 1024 * 1024;

export interface ThreadOutput {
  /** What the thread writes its file to (a workbook, an export). */
  readonly out: Writable;
  /** The main thread wrote `bytes` of what was posted: writes held back by the window go on. */
  ack(bytes: number): void;
  /** The run stopped: the write waiting for room and every later one fail with `error`. */
  abort(error: Error): void;
}

/**
 * A worker thread's file, sent to the main thread as transferable messages: pieces are gathered up
 * to 256 KiB (the main thread handles, and writes to storage, a few hundred messages per file rather
 * than one per deflate piece), and at most 4 MiB may be posted and not yet acked, so a slow
 * destination holds the writer back instead of filling this thread's memory.
 */
export function threadOutput(send: (chunk: Uint8Array) => void): ThreadOutput {
  let gathered: Buffer[] = [];
  let gatheredBytes = 0;
  let inFlight = 0;
  let blocked: ((error?: Error) => void) | null = null;
  let aborted: Error | null = null;

  const release = (error?: Error) => {
    const waiter = blocked;
    blocked = null;
    waiter?.(error);
  };
  const postGathered = () => {
    if (gatheredBytes === 0) return;
    // One copy the port can transfer: the writer's chunks may share their memory.
    const chunk = new Uint8Array(gatheredBytes);
    let at = 0;
    for (const piece of gathered) {
      chunk.set(piece, at);
      at += piece.length;
    }
    gathered = [];
    gatheredBytes = 0;
    inFlight += chunk.length;
    send(chunk);
  };
  const out = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (aborted) {
        callback(aborted);
        return;
      }
      gathered.push(chunk);
      gatheredBytes += chunk.length;
      if (gatheredBytes >= MESSAGE_BYTES) postGathered();
      if (inFlight < WINDOW_BYTES) callback();
      else blocked = callback;
    },
    final(callback) {
      if (aborted) callback(aborted);
      else {
        postGathered();
        callback();
      }
    },
  });
  return {
    out,
    ack(bytes) {
      inFlight -= bytes;
      if (inFlight < WINDOW_BYTES) release();
    },
    abort(error) {
      aborted ??= error;
      release(aborted);
    },
  };
}

/**
 * One pending wait at a time, for a thread's loops (input to come, room in a window): `wait()` until
 * `notify()`, which rejects the wait instead when given an error. The waiter is cleared before it is
 * settled: settling may start the next wait synchronously.
 */
export class Signal {
  private waiter: { resolve(): void; reject(error: Error): void } | null = null;

  wait(): Promise<void> {
    return new Promise<void>((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  notify(error?: Error): void {
    const waiter = this.waiter;
    this.waiter = null;
    if (error) waiter?.reject(error);
    else waiter?.resolve();
  }
}
