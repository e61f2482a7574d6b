import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline, Readable, Transform } from 'node:stream';
import S3rver, { type S3rverContext } from 's3rver';

/**
 * An S3 server (s3rver) on loopback for fault tests. It counts every object it creates per key,
 * across restarts, so a test can tell a side effect done twice from one done once; it can turn
 * read-only (new writes answered 503, writes under way fail as a whole) like a store whose disk turned
 * read-only; it can serve reads slowly; and
 * it can be stopped and started again on the same port and directory.
 */
export interface TestS3 {
  endpoint: string;
  /** Objects created per key (PUT, copy, completed multipart upload), since the server first started. */
  created: Map<string, number>;
  setReadOnly(readOnly: boolean): void;
  /** Serves object reads at this rate (a slow store), or at full speed with null. Applies to reads under way. */
  throttleReads(bytesPerSecond: number | null): void;
  /** Bytes of the object served to readers so far (every GET of the key, since the server first started). */
  bytesRead(key: string): number;
  /** Every key in the bucket, as a LIST would give them. */
  keys(bucket: string): Promise<string[]>;
  /** Multipart uploads begun and never completed nor aborted: partial objects. */
  pendingUploads(bucket: string): string[];
  start(): Promise<void>;
  stop(): Promise<void>;
  destroy(): Promise<void>;
}

const WRITES = new Set(['PUT', 'POST', 'DELETE']);

/** What a store that cannot write answers. */
function refuse(ctx: S3rverContext): void {
  ctx.status = 503;
  ctx.type = 'application/xml';
  ctx.body = '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>ServiceUnavailable</Code><Message>Read-only file system</Message></Error>';
}

/** The object key of a path-style request (`/<bucket>/<key>`). */
function keyOf(requestPath: string): string {
  return requestPath.slice(1).split('/').map(decodeURIComponent).slice(1).join('/');
}

export async function startS3Server(): Promise<TestS3> {
  const directory = mkdtempSync(path.join(tmpdir(), 'portal-faults-s3-'));
  const created = new Map<string, number>();
  let readOnly = false;
  let readRate: number | null = null;
  const served = new Map<string, number>();
  const throttled = (key: string) =>
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        served.set(key, (served.get(key) ?? 0) + chunk.length);
        if (readRate === null) return done(null, chunk);
        setTimeout(() => done(null, chunk), (chunk.length / readRate) * 1000);
      },
    });
  const inFlightWrites = new Set<{ doomed: boolean }>();
  let port = 0;
  let server: S3rver | undefined;

  async function start(): Promise<void> {
    const s3 = new S3rver({ address: '127.0.0.1', port, directory, silent: true });
    // s3rver's delete removes the key's directories once empty; a write of a key there a moment later (the API and
    // every worker probe readiness by writing and deleting one key) then opens its file in a directory gone, and
    // the ENOENT comes from a stream nobody listens to: an uncaught exception in the test process. S3 has no
    // directories: a delete here removes the object's files and leaves the directories.
    s3.store.deleteObject = async (bucket, key) => {
      await Promise.all(
        (['object', 'object.md5', 'metadata.json'] as const).map((resource) =>
          unlink(s3.store.getResourcePath(bucket, key, resource)).catch((error: NodeJS.ErrnoException) => {
            if (error.code !== 'ENOENT') throw error;
          }),
        ),
      );
    };
    // First in the stack, so a refused write never reaches the store.
    s3.middleware.unshift(async (ctx, next) => {
      if (!WRITES.has(ctx.method)) {
        await next();
        if (ctx.body instanceof Readable) ctx.body = pipeline(ctx.body, throttled(keyOf(ctx.path)), () => {});
        return;
      }
      if (readOnly) return refuse(ctx);
      const write = { doomed: false };
      inFlightWrites.add(write);
      try {
        await next();
      } finally {
        inFlightWrites.delete(write);
      }
      if (!write.doomed || ctx.method === 'DELETE') return;
      // The store turned read-only under this write: it fails as a whole, as an S3 write does (a part
      // of a multipart upload stays pending until the client aborts the upload).
      if (!ctx.query.uploadId || ctx.method === 'POST') {
        const [bucket = ''] = ctx.path.slice(1).split('/').map(decodeURIComponent);
        const key = keyOf(ctx.path);
        await s3.store.deleteObject(bucket, key);
        const count = created.get(key) ?? 0;
        if (count > 1) created.set(key, count - 1);
        else created.delete(key);
      }
      refuse(ctx);
    });
    s3.on('event', (event) => {
      for (const record of event.Records) {
        if (!record.eventName.startsWith('ObjectCreated:')) continue;
        const key = record.s3.object.key;
        created.set(key, (created.get(key) ?? 0) + 1);
      }
    });
    ({ port } = await s3.run());
    server = s3;
  }

  async function stop(): Promise<void> {
    const s3 = server;
    server = undefined;
    await s3?.close();
  }

  await start();
  return {
    get endpoint() {
      return `http://127.0.0.1:${port}`;
    },
    created,
    setReadOnly(value) {
      readOnly = value;
      // A write under way when the disk turns read-only fails too.
      if (value) for (const write of inFlightWrites) write.doomed = true;
    },
    bytesRead(key) {
      return served.get(key) ?? 0;
    },
    throttleReads(bytesPerSecond) {
      readRate = bytesPerSecond;
    },
    async keys(bucket) {
      if (!server) throw new Error('the S3 server is stopped');
      const { objects } = await server.store.listObjects(bucket, { maxKeys: 1_000_000 });
      return objects.map((o) => o.key);
    },
    pendingUploads(bucket) {
      const uploads = path.join(directory, bucket, '._S3rver_uploads');
      return existsSync(uploads) ? readdirSync(uploads) : [];
    },
    start,
    stop,
    async destroy() {
      await stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
