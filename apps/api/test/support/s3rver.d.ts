// s3rver ships no types; only what the tests use.
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';
  export default class S3rver {
    constructor(options: { address?: string; port?: number; directory: string; silent?: boolean; resetOnClose?: boolean });
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    /** Its filesystem store: where an object's bytes lie, so a test can set their modification time. */
    store: { getResourcePath(bucket: string, key: string, resource: 'object'): string };
  }
}
