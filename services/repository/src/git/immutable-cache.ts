// Answers computed from object ids, remembered: the last commit of a path at a commit, a page
// of a history walk from a head, a commit's files and line stats. An object id always names
// the same bytes and (for a commit) the same history, so an entry never goes stale; it is
// only bounded (least recently used first) and dropped with its repository. Keys start with
// the repository's directory, so one repository's answers never serve another's reads.
// Concurrent misses of one key share one computation.

export class ImmutableCache {
  private readonly entries = new Map<string, Promise<unknown>>();

  constructor(private readonly maxEntries = 20_000) {}

  /** The remembered answer for `key` in `gitDir`, or `compute()`'s (a failure is not remembered). */
  get<T>(gitDir: string, key: string, compute: () => Promise<T>): Promise<T> {
    const full = `${gitDir}\0${key}`;
    const found = this.entries.get(full);
    if (found) {
      this.entries.delete(full);
      this.entries.set(full, found);
      return found as Promise<T>;
    }
    const computed = compute();
    this.entries.set(full, computed);
    computed.catch(() => {
      if (this.entries.get(full) === computed) this.entries.delete(full);
    });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    return computed;
  }

  /** Answers already known for `gitDir` (no computation). */
  peek<T>(gitDir: string, key: string): Promise<T> | undefined {
    return this.entries.get(`${gitDir}\0${key}`) as Promise<T> | undefined;
  }

  /** Drops the answers of `gitDir` and of every repository under it (removed, moved). */
  forget(gitDir: string): void {
    const prefix = `${gitDir}\0`;
    const under = gitDir.endsWith('/') ? gitDir : `${gitDir}/`;
    for (const key of this.entries.keys()) if (key.startsWith(prefix) || key.startsWith(under)) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
