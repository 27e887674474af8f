// Answers computed from object ids, remembered: parsed commits and trees, small blobs, the
// last commit of a path at a commit, a history walk from a head, a commit's files and line
// stats. An object id always names the same bytes and (for a commit) the same history, so an
// entry never goes stale; it is only bounded (least recently used first, by count and by
// bytes) and dropped with its repository. Keys start with the repository's directory, so one
// repository's answers never serve another's reads. Concurrent misses of one key share one
// computation; a failure is not remembered.

interface Entry {
  value: Promise<unknown>;
  bytes: number;
}

export interface ImmutableCacheOptions {
  maxEntries?: number;
  /** Bound on the bytes of entries given a size (blobs): 64 MiB. */
  maxBytes?: number;
}

export class ImmutableCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private readonly maxEntries: number;
  private readonly maxBytes: number;

  constructor(options: ImmutableCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 50_000;
    this.maxBytes = options.maxBytes ?? 64 << 20;
  }

  /**
   * The remembered answer for `key` in `gitDir`, or `compute()`'s. `bytesOf` weighs an answer
   * against the byte bound (entries without it weigh nothing).
   */
  get<T>(gitDir: string, key: string, compute: () => Promise<T>, bytesOf?: (value: T) => number): Promise<T> {
    const full = `${gitDir}\0${key}`;
    const found = this.entries.get(full);
    if (found) {
      this.entries.delete(full);
      this.entries.set(full, found);
      return found.value as Promise<T>;
    }
    const value = compute();
    const entry: Entry = { value, bytes: 0 };
    this.entries.set(full, entry);
    value.then((v) => {
      if (!bytesOf || this.entries.get(full) !== entry) return;
      entry.bytes = bytesOf(v);
      this.bytes += entry.bytes;
      this.evict();
    }, () => this.drop(full, entry));
    this.evict();
    return value;
  }

  /** Whether an answer for `key` in `gitDir` is known or being computed. */
  has(gitDir: string, key: string): boolean {
    return this.entries.has(`${gitDir}\0${key}`);
  }

  /** Drops the answers of `gitDir` and of every repository under it (removed, moved). */
  forget(gitDir: string): void {
    const prefix = `${gitDir}\0`;
    const under = gitDir.endsWith('/') ? gitDir : `${gitDir}/`;
    for (const [key, entry] of this.entries) if (key.startsWith(prefix) || key.startsWith(under)) this.drop(key, entry);
  }

  get size(): number {
    return this.entries.size;
  }

  private drop(key: string, entry: Entry): void {
    if (this.entries.get(key) !== entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }

  private evict(): void {
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const [key, entry] = this.entries.entries().next().value as [string, Entry];
      this.drop(key, entry);
    }
  }
}
