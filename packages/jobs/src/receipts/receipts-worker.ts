import { parentPort, workerData } from 'node:worker_threads';
import type { ReceiptThreadInput, ReceiptThreadMessage } from './protocol.ts';
import { readReceiptUpload } from './read.ts';

/**
 * The thread side of a receipt upload: the zip inflated under counters, the manifest and each PDF's
 * text read here (the CPU-heavy part), every PDF sent to the main thread, which stores it and writes
 * its row. One PDF at a time is unacknowledged (the storage and database writes set the pace).
 */
const input = workerData as ReceiptThreadInput;
const port = parentPort!;
let credits = 1;
let wake: (() => void) | null = null;
port.on('message', (message) => {
  if (message === 'ack') {
    credits++;
    wake?.();
    wake = null;
  }
});
const post = async (message: ReceiptThreadMessage) => {
  if (message.type === 'pdf') {
    while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
    credits--;
    port.postMessage(message, [message.bytes.buffer as ArrayBuffer]);
    return;
  }
  port.postMessage(message);
};
const bytes = Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength);
await post(await readReceiptUpload(bytes, input.kind, input.name, post));
