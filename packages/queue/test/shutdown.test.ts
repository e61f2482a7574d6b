import { describe, expect, it } from 'vitest';
import { ShutdownTimeoutError, closeGracefully } from '../src/index.ts';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('closeGracefully', () => {
  it('runs closers in order', async () => {
    const order: string[] = [];
    await closeGracefully([
      async () => { await sleep(20); order.push('http'); },
      async () => void order.push('workers'),
      async () => void order.push('redis'),
    ], 1000);
    expect(order).toEqual(['http', 'workers', 'redis']);
  });

  it('keeps going past a failing closer and reports it at the end', async () => {
    const order: string[] = [];
    const result = closeGracefully([
      async () => { throw new Error('boom'); },
      async () => void order.push('db'),
    ], 1000);
    await expect(result).rejects.toBeInstanceOf(AggregateError);
    expect(order).toEqual(['db']);
  });

  it('rejects with ShutdownTimeoutError naming the closer that hangs', async () => {
    const started = Date.now();
    const result = closeGracefully([async () => {}, () => new Promise<void>(() => {})], 100);
    await expect(result).rejects.toMatchObject({ name: 'ShutdownTimeoutError', pending: 1 });
    await expect(result).rejects.toBeInstanceOf(ShutdownTimeoutError);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
