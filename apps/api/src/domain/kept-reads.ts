/*
 * Reads kept per database handle, in flight or done: a file's sorted orders (decision 190), a search's matches
 * (decision 188), a file's ledger colours (decision 233). Requests asking the same key at once share one read; a
 * failed read is not kept (the next request tries again); the least recently used go first once a bound is passed:
 * the bytes of the values read (`bytesOf`, counted once a read is done) or the number of entries.
 *
 * The key says which version of what was read (a file's edit version and last update, …): a changed file asks under
 * a new key, and the old entry ages out. A caller that must check an entry before using it (file-colours.ts: the
 * ledger may have changed since) peeks at it, then `use`s or `forget`s it.
 */

export interface KeptReadsLimits<V> {
  /** At most this many bytes of values, as `bytesOf` counts them; the read just done always stays. */
  readonly maxBytes?: number;
  readonly bytesOf?: (value: V) => number;
  /** At most this many entries. */
  readonly maxEntries?: number;
}

interface Held<V> {
  readonly read: Promise<V>;
  /** The value's bytes once read (0 while in flight). */
  bytes: number;
}

export class KeptReads<V> {
  private readonly byHandle = new WeakMap<object, Map<string, Held<V>>>();

  constructor(private readonly limits: KeptReadsLimits<V>) {}

  private entries(handle: object): Map<string, Held<V>> {
    let entries = this.byHandle.get(handle);
    if (!entries) this.byHandle.set(handle, (entries = new Map<string, Held<V>>()));
    return entries;
  }

  /** The read kept under `key`, without making it recently used. */
  peek(handle: object, key: string): Promise<V> | undefined {
    return this.byHandle.get(handle)?.get(key)?.read;
  }

  /** Makes `read`, if it is still the one kept under `key`, the most recently used. */
  use(handle: object, key: string, read: Promise<V>): void {
    const entries = this.entries(handle);
    const held = entries.get(key);
    if (held?.read !== read) return;
    entries.delete(key);
    entries.set(key, held);
  }

  /** Drops `read` if it is still the one kept under `key`. */
  forget(handle: object, key: string, read: Promise<V>): void {
    const entries = this.entries(handle);
    if (entries.get(key)?.read === read) entries.delete(key);
  }

  /** The read kept under `key` (now the most recently used), or `start()`'s, kept. */
  get(handle: object, key: string, start: () => Promise<V>): Promise<V> {
    const found = this.peek(handle, key);
    if (found) {
      this.use(handle, key, found);
      return found;
    }
    const read = start();
    this.keep(handle, key, read);
    return read;
  }

  /** Keeps `read` under `key` in place of whatever was there, as the most recently used. */
  keep(handle: object, key: string, read: Promise<V>): void {
    const entries = this.entries(handle);
    const held: Held<V> = { read, bytes: 0 };
    entries.delete(key);
    entries.set(key, held);
    const { maxEntries, maxBytes, bytesOf } = this.limits;
    if (maxEntries !== undefined) while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    read.then(
      (value) => {
        if (maxBytes === undefined || !bytesOf) return;
        held.bytes = bytesOf(value);
        let total = 0;
        for (const e of entries.values()) total += e.bytes;
        for (const [k, e] of entries) {
          if (total <= maxBytes) break;
          if (e === held) continue;
          entries.delete(k);
          total -= e.bytes;
        }
      },
      // A failed read is not kept: the next request tries again.
      () => entries.get(key) === held && entries.delete(key),
    );
  }

  /** How many entries are kept for `handle` (tests). */
  size(handle: object): number {
    return this.byHandle.get(handle)?.size ?? 0;
  }
}
