// s3rver ships no types; only what the tests use.
declare module 's3rver' {
  import type { EventEmitter } from 'node:events';
  import type { IncomingMessage } from 'node:http';
  import type { AddressInfo } from 'node:net';

  /** The S3 event notification s3rver emits for each object created or removed. */
  export interface S3rverEvent {
    Records: Array<{ eventName: string; s3: { bucket: { name: string }; object: { key: string } } }>;
  }
  export interface S3rverContext {
    method: string;
    path: string;
    query: Record<string, string | string[] | undefined>;
    req: IncomingMessage;
    status: number;
    type: string;
    body: unknown;
  }
  export type S3rverMiddleware = (ctx: S3rverContext, next: () => Promise<void>) => Promise<void> | void;

  export default class S3rver extends EventEmitter {
    constructor(options: { address?: string; port?: number; directory: string; silent?: boolean; resetOnClose?: boolean });
    /** Koa's middleware stack, composed when the server starts listening. */
    middleware: S3rverMiddleware[];
    store: {
      /** Where an object's bytes lie, so a test can set their modification time. */
      getResourcePath(bucket: string, key: string, resource: 'object' | 'object.md5' | 'metadata.json'): string;
      listObjects(bucket: string, options: { prefix?: string; maxKeys?: number }): Promise<{ objects: Array<{ key: string }> }>;
      deleteObject(bucket: string, key: string): Promise<void>;
    };
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    on(event: 'event', listener: (event: S3rverEvent) => void): this;
  }
}
