// The long-lived git processes of this service (cat-file readers, catfile-cache.ts, and ref
// updaters, ref-updater.ts), kept in one pool: at most `maxProcesses` alive across
// repositories and kinds, the least recently used closed first, and a process idle for
// `idleMs` closed. A process that exits leaves the pool; the next use starts a fresh one.

/** What the pool needs of a running process. */
export interface PooledProcess {
  readonly gitDir: string;
  /** No request in flight. */
  readonly idle: boolean;
  readonly exited: boolean;
  lastUsed: number;
  readonly pid: number | undefined;
  /** Lets it finish what it was asked, then exit. */
  close(): void;
}

export interface ProcessPoolOptions {
  /**
   * Most processes alive at once, across repositories and kinds: 256. A busy repository keeps
   * up to five (cat-file --batch and --batch-check in the read and the write lane, and its
   * update-ref), so 100 (Gitaly's bound for each of its two cat-file caches) churned processes
   * once twenty repositories took writes; an idle cat-file holds ~250 KB of its own memory.
   */
  maxProcesses?: number;
  /** A process unused this long is closed (Gitaly: 10 s). */
  idleMs?: number;
}

export class ProcessPool {
  // Map order is recency: a use moves a process to the end, eviction takes the front.
  private readonly processes = new Map<string, PooledProcess>();
  private readonly maxProcesses: number;
  private readonly idleMs: number;
  private sweeper?: NodeJS.Timeout;

  constructor(options: ProcessPoolOptions = {}) {
    this.maxProcesses = Math.max(1, options.maxProcesses ?? 256);
    this.idleMs = options.idleMs ?? 10_000;
  }

  /**
   * The running process under `key` (its `gitDir` is part of the key), or a new one from
   * `start`, which calls back `gone` when it exits.
   */
  get<P extends PooledProcess>(key: string, start: (gone: (p: PooledProcess) => void) => P): P {
    const found = this.processes.get(key);
    if (found && !found.exited) {
      this.processes.delete(key);
      this.processes.set(key, found);
      found.lastUsed = Date.now();
      return found as P;
    }
    const started = start((gone) => {
      if (this.processes.get(key) === gone) this.processes.delete(key);
    });
    this.processes.set(key, started);
    while (this.processes.size > this.maxProcesses) {
      const [oldestKey, oldest] = this.processes.entries().next().value as [string, PooledProcess];
      this.processes.delete(oldestKey);
      oldest.close();
    }
    this.startSweeper();
    return started;
  }

  /** Closes the processes of `gitDir` and of every repository under it (a removed or moved repository or owner). */
  forget(gitDir: string): void {
    const prefix = gitDir.endsWith('/') ? gitDir : `${gitDir}/`;
    for (const [key, p] of this.processes) {
      if (p.gitDir === gitDir || p.gitDir.startsWith(prefix)) {
        this.processes.delete(key);
        p.close();
      }
    }
  }

  /** How many processes are running (for tests and metrics). */
  get size(): number {
    return this.processes.size;
  }

  /** Process ids of the running processes of `gitDir` whose key starts with `kind` (for tests). */
  pidsOf(gitDir: string, kind = ''): number[] {
    return [...this.processes].filter(([key, p]) => p.gitDir === gitDir && key.startsWith(kind)).map(([, p]) => p.pid).filter((pid): pid is number => pid !== undefined);
  }

  close(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    for (const p of this.processes.values()) p.close();
    this.processes.clear();
  }

  private startSweeper(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => {
      const cutoff = Date.now() - this.idleMs;
      for (const [key, p] of this.processes) {
        if (p.idle && p.lastUsed < cutoff) {
          this.processes.delete(key);
          p.close();
        }
      }
      if (this.processes.size === 0) {
        clearInterval(this.sweeper);
        this.sweeper = undefined;
      }
    }, Math.max(250, Math.floor(this.idleMs / 2)));
    this.sweeper.unref();
  }
}
