import { connect } from 'node:net';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, UnrecoverableJobError, isFinalFailure, isInfrastructureError, retryDelay } from '../src/index.ts';

/** A real ECONNREFUSED, as the pg driver or an SMTP client sees a dependency that is down. */
async function connectionRefused(): Promise<Error> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return new Promise((resolve) => connect(port, '127.0.0.1').once('error', resolve));
}

/** How long a job keeps being retried before its attempts are spent, for this error. */
function retryWindow(error: unknown): number {
  let total = 0;
  for (let made = 1; made < DEFAULT_RETRY.attempts; made += 1) total += retryDelay(DEFAULT_RETRY, made, error);
  return total;
}

describe('retry policy', () => {
  it('a PostgreSQL outage of 20 s does not exhaust the retries (infrastructure errors back off longer)', async () => {
    const refused = await connectionRefused();
    expect(isInfrastructureError(refused)).toBe(true);
    // drizzle wraps the driver's error: the cause chain is followed.
    expect(isInfrastructureError(new Error('Failed query: insert …', { cause: refused }))).toBe(true);
    expect(retryWindow(refused)).toBeGreaterThan(60_000);
  });

  it('recognises PostgreSQL shutdown and connection-class errors and storage 5xx', () => {
    expect(isInfrastructureError(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isInfrastructureError(Object.assign(new Error('x'), { code: '08006' }))).toBe(true);
    expect(isInfrastructureError(Object.assign(new Error('x'), { $metadata: { httpStatusCode: 503 } }))).toBe(true);
    expect(isInfrastructureError(Object.assign(new Error('read-only file system'), { code: 'EROFS' }))).toBe(true);
  });

  it('ordinary errors keep the short backoff; content errors stay unrecoverable', () => {
    const bug = new TypeError('x is undefined');
    expect(isInfrastructureError(bug)).toBe(false);
    expect(retryWindow(bug)).toBeLessThan(retryWindow(Object.assign(new Error('x'), { code: 'ECONNRESET' })));
    expect(isFinalFailure(new UnrecoverableJobError('malformed LEDES header'), 1, DEFAULT_RETRY.attempts)).toBe(true);
    expect(isFinalFailure(bug, 1, DEFAULT_RETRY.attempts)).toBe(false);
    expect(isFinalFailure(bug, DEFAULT_RETRY.attempts, DEFAULT_RETRY.attempts)).toBe(true);
  });
});
