// Ref moves through one long-lived `git update-ref --stdin` per repository (in the shared
// process pool, process-pool.ts) instead of a process per move: each move is one transaction
// `start / update <ref> <new> <old> / prepare / commit`, which git answers `<verb>: ok` line
// by line. The expected old value makes it a compare-and-swap: when the ref no longer holds
// it, `prepare` fails, git exits with the reason on stderr, and the move is refused
// (RefUpdateConflict), so two writers never lose a commit. The next move starts a fresh
// process. Only validated ref names and object ids reach its stdin, one per line.
// The commonest move, one existing branch from the commit it holds to another, takes no git
// process at all: it is made in place with git's own lock (ref-in-place.ts).
// Before git takes the locks of a transaction, locks left long ago by a writer that died
// holding them are removed (stale-ref-lock.ts): git itself would refuse the move for good.
import type { ChildProcess } from 'node:child_process';
import { RefUpdateConflict } from './branches.js';
import { git, isObjectId, isSafeRef, isZeroId, spawnGit } from './command.js';
import type { PooledProcess, ProcessPool } from './process-pool.js';
import { moveRefInPlace } from './ref-in-place.js';
import { removeStaleRefLocks } from './stale-ref-lock.js';

/** One move: `newSha` all zeros deletes; `oldSha` checked when given (all zeros: the ref must not exist). */
export interface RefMove {
  ref: string;
  newSha: string;
  oldSha?: string;
}

// A transaction git does not answer in this long is given up (the process is stopped).
const STALL_MS = 30_000;

interface Pending {
  /** `ok` lines still owed. */
  owed: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

class UpdateRefProcess implements PooledProcess {
  private readonly child: ChildProcess;
  private readonly pending: Pending[] = [];
  private out = '';
  private stderr = '';
  private timer?: NodeJS.Timeout;
  exited = false;
  lastUsed = Date.now();

  constructor(readonly gitDir: string, private readonly onExit: (p: UpdateRefProcess) => void) {
    this.child = spawnGit(git('update-ref', { gitDir }).flag('--stdin').build());
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => this.onData(chunk));
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-2000);
    });
    this.child.stdin!.on('error', () => {}); // EPIPE when git died: 'close' reports it
    this.child.on('error', (err) => this.fail(err));
    this.child.on('close', (code, signal) => this.fail(new RefUpdateConflict(this.stderr.trim() || `git update-ref exited (${signal ?? code})`)));
  }

  get idle(): boolean {
    return this.pending.length === 0;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Runs one transaction of `moves`; resolves once git committed it. */
  transaction(moves: readonly RefMove[]): Promise<void> {
    if (this.exited) return Promise.reject(new RefUpdateConflict('git update-ref has exited'));
    const lines = ['start'];
    for (const { ref, newSha, oldSha } of moves) {
      const old = oldSha === undefined ? '' : ` ${oldSha}`;
      lines.push(isZeroId(newSha) ? `delete ${ref}${old}` : `update ${ref} ${newSha}${old}`);
    }
    lines.push('prepare', 'commit');
    this.lastUsed = Date.now();
    return new Promise((resolve, reject) => {
      this.pending.push({ owed: 3, resolve, reject });
      this.arm();
      this.child.stdin!.write(`${lines.join('\n')}\n`);
    });
  }

  close(): void {
    if (this.exited) return;
    this.child.stdin!.end();
  }

  private arm(): void {
    clearTimeout(this.timer);
    if (!this.pending.length) return;
    // SIGTERM, not SIGKILL: git then removes the ref locks it holds.
    this.timer = setTimeout(() => this.child.kill('SIGTERM'), STALL_MS);
    this.timer.unref();
  }

  private onData(chunk: string): void {
    this.out += chunk;
    for (let eol = this.out.indexOf('\n'); eol >= 0; eol = this.out.indexOf('\n')) {
      const line = this.out.slice(0, eol);
      this.out = this.out.slice(eol + 1);
      const head = this.pending[0];
      if (!head || !/^(start|prepare|commit): ok$/.test(line)) {
        // Not what this protocol says: the stream is out of step, start over.
        this.child.kill('SIGTERM');
        return;
      }
      if (--head.owed === 0) {
        this.pending.shift();
        this.arm();
        head.resolve();
      }
    }
  }

  private fail(err: Error): void {
    if (this.exited) return;
    this.exited = true;
    clearTimeout(this.timer);
    for (const p of this.pending.splice(0)) p.reject(err);
    this.onExit(this);
  }
}

/** The ref updaters of this service's repositories. */
export class RefUpdaters {
  // One transaction at a time per repository: a refused one ends its process, which must not
  // take a valid transaction queued behind it down with it.
  private readonly tails = new Map<string, Promise<void>>();

  constructor(private readonly pool: ProcessPool) {}

  /**
   * Moves every ref of `moves` at once or none (one transaction); throws RefUpdateConflict
   * when one no longer holds its expected old value.
   */
  async update(gitDir: string, moves: readonly RefMove[]): Promise<void> {
    for (const { ref, newSha, oldSha } of moves) {
      if (!isSafeRef(ref) || !ref.startsWith('refs/') || !isObjectId(newSha) || (oldSha !== undefined && !isObjectId(oldSha))) throw new RefUpdateConflict(`not a ref move: ${JSON.stringify(ref)}`);
    }
    const previous = this.tails.get(gitDir) ?? Promise.resolve();
    const mine = previous.then(() => {
      if (moves.length === 1 && movesInPlace(moves[0]) && moveRefInPlace(gitDir, moves[0].ref, moves[0].newSha, moves[0].oldSha!) === 'moved') return;
      removeStaleRefLocks(gitDir, moves);
      return this.pool.get(`update-ref\0${gitDir}`, (gone) => new UpdateRefProcess(gitDir, gone)).transaction(moves);
    });
    const tail = mine.catch(() => {});
    this.tails.set(gitDir, tail);
    try {
      await mine;
    } finally {
      if (this.tails.get(gitDir) === tail) this.tails.delete(gitDir);
    }
  }
}

/** A move ref-in-place.ts may make: an existing ref from a known id to another (not a creation or deletion). */
function movesInPlace({ newSha, oldSha }: RefMove): boolean {
  return oldSha !== undefined && !isZeroId(oldSha) && !isZeroId(newSha);
}
