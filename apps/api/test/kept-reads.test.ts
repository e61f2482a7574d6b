import { describe, expect, it } from 'vitest';
import { KeptReads } from '../src/domain/kept-reads.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('reads kept per database handle', () => {
  it('requests asking the same key share one read, per handle', async () => {
    const kept = new KeptReads<number>({ maxEntries: 10 });
    const one = {};
    const two = {};
    let started = 0;
    const start = () => Promise.resolve(++started);
    const [a, b] = await Promise.all([kept.get(one, 'k', start), kept.get(one, 'k', start)]);
    expect([a, b, started]).toEqual([1, 1, 1]);
    expect(await kept.get(two, 'k', start)).toBe(2);
  });

  it('a failed read is not kept: the next request reads again', async () => {
    const kept = new KeptReads<number>({ maxEntries: 10 });
    const handle = {};
    await expect(kept.get(handle, 'k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    await tick();
    expect(kept.size(handle)).toBe(0);
    expect(await kept.get(handle, 'k', () => Promise.resolve(7))).toBe(7);
  });

  it('past the entries’ bound, the least recently used goes', async () => {
    const kept = new KeptReads<string>({ maxEntries: 2 });
    const handle = {};
    await kept.get(handle, 'a', async () => 'a');
    await kept.get(handle, 'b', async () => 'b');
    await kept.get(handle, 'a', async () => 'a again'); // used: b is now the least recent
    await kept.get(handle, 'c', async () => 'c');
    expect(kept.peek(handle, 'b')).toBeUndefined();
    expect(await kept.peek(handle, 'a')).toBe('a');
    expect(await kept.peek(handle, 'c')).toBe('c');
  });

  it('past the bytes’ bound, the least recently used go once a read is done; the one just read stays', async () => {
    const kept = new KeptReads<Uint8Array>({ maxBytes: 100, bytesOf: (v) => v.byteLength });
    const handle = {};
    await kept.get(handle, 'a', async () => new Uint8Array(40));
    await kept.get(handle, 'b', async () => new Uint8Array(40));
    await kept.get(handle, 'c', async () => new Uint8Array(40));
    await tick();
    expect(kept.peek(handle, 'a')).toBeUndefined();
    expect(kept.size(handle)).toBe(2);
    await kept.get(handle, 'big', async () => new Uint8Array(500));
    await tick();
    expect([kept.peek(handle, 'b'), kept.peek(handle, 'c')]).toEqual([undefined, undefined]);
    expect((await kept.peek(handle, 'big'))!.byteLength).toBe(500);
  });

  it('peek does not make an entry recent; use does; forget drops only the read it names', async () => {
    const kept = new KeptReads<string>({ maxEntries: 2 });
    const handle = {};
    const a = Promise.resolve('a');
    kept.keep(handle, 'a', a);
    kept.keep(handle, 'b', Promise.resolve('b'));
    expect(kept.peek(handle, 'a')).toBe(a);
    kept.keep(handle, 'c', Promise.resolve('c'));
    expect(kept.peek(handle, 'a'), 'peeked, not used: the least recent').toBeUndefined();
    const b = kept.peek(handle, 'b')!;
    kept.use(handle, 'b', b);
    kept.keep(handle, 'd', Promise.resolve('d'));
    expect(kept.peek(handle, 'b')).toBe(b);
    expect(kept.peek(handle, 'c')).toBeUndefined();
    const replaced = Promise.resolve('b2');
    kept.keep(handle, 'b', replaced);
    kept.forget(handle, 'b', b);
    expect(kept.peek(handle, 'b'), 'another read took its place: kept').toBe(replaced);
    kept.forget(handle, 'b', replaced);
    expect(kept.peek(handle, 'b')).toBeUndefined();
  });
});
