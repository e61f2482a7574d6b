import type { Storage } from '@portal/storage';

// Stored uploads as services see them: a key in storage, its name, size and hash. Receiving them is
// the HTTP layer's (`http/multipart.ts`); checking their content is the services'.

export { ZIP_MAGIC } from '@portal/jobs';

/**
 * The first `bytes` of a stored upload (fewer when the file is shorter), read to check its real type
 * against its name before any row is written.
 */
export async function uploadHead(storage: Storage, key: string, bytes: number): Promise<Buffer> {
  const stream = await storage.get(key);
  let head = Buffer.alloc(0);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      head = Buffer.concat([head, chunk]);
      if (head.length >= bytes) break;
    }
  } finally {
    stream.destroy();
  }
  return head.subarray(0, bytes);
}

export interface StoredUpload {
  key: string;
  originalName: string;
  size: number;
  sha256: string;
}
