import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ZipWriter } from '../src/zip-writer.ts';

/** How many bytes `write` accepts (resolves for) before it waits, with an output that never drains. */
async function acceptedBeforeWaiting(chunk: number): Promise<number> {
  const stuck = new Writable({ highWaterMark: 16 * 1024, write() {} }); // never calls back: never drains
  const zip = new ZipWriter(stuck, 1);
  await zip.startEntry('sheet.xml');
  let accepted = 0;
  for (;;) {
    const write = zip.write(randomBytes(chunk)).then(() => true);
    const done = await Promise.race([write, sleep(300).then(() => false)]);
    if (!done) break;
    accepted += chunk;
    if (accepted > 64 << 20) break;
  }
  stuck.destroy();
  return accepted;
}

describe('ZipWriter', () => {
  it('lets the writer run ahead of the deflater by a few MiB, not 16 KiB, and no further', async () => {
    // Before: the deflater's default 16 KiB buffer made every 256 KiB write wait until deflate had read
    // all of it, so building rows and compressing them took turns instead of overlapping.
    const accepted = await acceptedBeforeWaiting(256 * 1024);
    expect(accepted).toBeGreaterThanOrEqual(2 << 20);
    expect(accepted).toBeLessThanOrEqual(6 << 20);
  });
});
