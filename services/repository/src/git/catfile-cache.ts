// Long-lived `git cat-file --batch` / `--batch-check` processes per repository (Gitaly's
// catfile cache): a read asks an already running git for objects instead of spawning one
// per request (a spawn costs ~11 ms of CPU here and blocks the event loop while it forks).
//
// - One process per (repository, kind), shared by concurrent requests: requests are
//   pipelined on its stdin and answered in order from its stdout (git answers batch lines
//   strictly in order and flushes after each object).
// - Bounded, in the pool shared with the ref updaters (process-pool.ts): least recently
//   used closed first, a process idle for a while closed.
// - A process that dies (killed, repository removed) fails only the requests it had in
//   flight, and those are asked once more of a fresh process; the next read starts one.
// - Only validated object ids, or `<object id>:<path>` lines whose path holds no newline,
//   ever reach its stdin, which git reads as object names, never as options. Revisions
//   (branch and tag names) are resolved elsewhere: a long-lived process may hold stale refs,
//   but an object id always names the same bytes, and git re-scans its packs when an id it
//   is asked for is not found, so objects written after it started are found.
import type { ChildProcess } from 'node:child_process';
import { git, GitError, isObjectId, spawnGit } from './command.js';
import { currentWriter } from '../domain/write-turn.js';
import { ProcessPool, type PooledProcess, type ProcessPoolOptions } from './process-pool.js';

export type CatfileKind = 'batch' | 'check';

export interface CatfileObject {
  oid: string;
  type: string;
  size: number;
  /** The object's bytes (`batch` only). */
  content?: Buffer;
}

/** The process answering a request went away before it answered. */
export class CatfileProcessExited extends Error {}

const CHECK_FORMAT = '%(objectname) %(objecttype) %(objectsize)';
// A process that has requests in flight and answers none of them for this long is killed.
const STALL_MS = 30_000;

interface Pending {
  line: string;
  resolve: (object: CatfileObject | undefined) => void;
  reject: (err: Error) => void;
}

/** One running cat-file process and the requests it owes answers to, in order. */
class CatfileProcess implements PooledProcess {
  private readonly child: ChildProcess;
  private readonly pending: Pending[] = [];
  private chunks: Buffer[] = [];
  private buffered = 0;
  private header?: { oid: string; type: string; size: number };
  private stderr = '';
  private stallTimer?: NodeJS.Timeout;
  exited = false;
  lastUsed = Date.now();

  constructor(readonly gitDir: string, readonly kind: CatfileKind, private readonly onExit: (p: CatfileProcess) => void) {
    const cmd = git('cat-file', { gitDir }).flag(kind === 'batch' ? '--batch' : `--batch-check=${CHECK_FORMAT}`);
    this.child = spawnGit(cmd.build());
    this.child.stdout!.on('data', (chunk: Buffer) => this.onData(chunk));
    this.child.stderr!.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-2000);
    });
    this.child.stdin!.on('error', () => {}); // EPIPE when git died: 'exit' reports it
    this.child.on('error', (err) => this.fail(err));
    this.child.on('close', (code, signal) => this.fail(new CatfileProcessExited(`git cat-file exited (${signal ?? code}): ${this.stderr.trim().slice(0, 300)}`)));
  }

  get idle(): boolean {
    return this.pending.length === 0;
  }

  request(line: string): Promise<CatfileObject | undefined> {
    if (this.exited) return Promise.reject(new CatfileProcessExited('git cat-file has exited'));
    this.lastUsed = Date.now();
    return new Promise((resolve, reject) => {
      this.pending.push({ line, resolve, reject });
      this.armStallTimer();
      this.child.stdin!.write(`${line}\n`);
    });
  }

  /** Closes stdin: git answers what it was asked and exits. */
  close(): void {
    if (this.exited) return;
    this.child.stdin!.end();
    // A process that does not finish in time is killed (its requests then fail and retry).
    setTimeout(() => this.kill(), STALL_MS).unref();
  }

  kill(): void {
    if (!this.exited) this.child.kill('SIGKILL');
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  private armStallTimer(): void {
    clearTimeout(this.stallTimer);
    if (this.pending.length === 0) return;
    this.stallTimer = setTimeout(() => this.kill(), STALL_MS);
    this.stallTimer.unref();
  }

  private fail(err: Error): void {
    if (this.exited) return;
    this.exited = true;
    clearTimeout(this.stallTimer);
    for (const p of this.pending.splice(0)) p.reject(err);
    this.onExit(this);
  }

  private answer(object: CatfileObject | undefined): void {
    const p = this.pending.shift();
    this.armStallTimer();
    p?.resolve(object);
  }

  private onData(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    for (;;) {
      if (!this.header) {
        const buf = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
        const eol = buf.indexOf(0x0a);
        if (eol < 0) {
          this.chunks = [buf];
          return;
        }
        const line = buf.subarray(0, eol).toString('utf8');
        const rest = buf.subarray(eol + 1);
        this.chunks = rest.length ? [rest] : [];
        this.buffered = rest.length;
        const asked = this.pending[0]?.line;
        // `<what was asked> missing|ambiguous`: checked against the line we sent, since a
        // path may itself hold spaces.
        if (asked !== undefined && (line === `${asked} missing` || line === `${asked} ambiguous`)) {
          this.answer(undefined);
          continue;
        }
        const [oid, type, size] = line.split(' ');
        if (!isObjectId(oid ?? '') || !type || !/^\d+$/.test(size ?? '')) {
          // Not a line this protocol can produce: the stream is out of step, start over.
          this.kill();
          return;
        }
        if (this.kind === 'check') {
          this.answer({ oid, type, size: Number(size) });
          continue;
        }
        this.header = { oid, type, size: Number(size) };
      }
      const need = this.header.size + 1; // the bytes and git's trailing newline
      if (this.buffered < need) return;
      const buf = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
      // A copy, so a small object never pins a large chunk in memory.
      const content = Buffer.from(buf.subarray(0, this.header.size));
      const rest = buf.subarray(need);
      this.chunks = rest.length ? [rest] : [];
      this.buffered = rest.length;
      const { oid, type, size } = this.header;
      this.header = undefined;
      this.answer({ oid, type, size, content });
    }
  }
}

export type CatfileCacheOptions = ProcessPoolOptions;

/** The cat-file processes of this service, per repository directory, in the shared pool (process-pool.ts). */
export class CatfileCache {
  readonly pool: ProcessPool;

  /** `pool`: shared with the ref updaters (ref-updater.ts), so one bound covers every long-lived git. */
  constructor(pool: ProcessPool | CatfileCacheOptions = {}) {
    this.pool = pool instanceof ProcessPool ? pool : new ProcessPool(pool);
  }

  /** The object with this id, with its bytes; undefined when the repository has none. */
  object(gitDir: string, oid: string): Promise<CatfileObject | undefined> {
    if (!isObjectId(oid)) return Promise.resolve(undefined);
    return this.ask(gitDir, 'batch', oid);
  }

  /** Type and size of the object with this id. */
  info(gitDir: string, oid: string): Promise<CatfileObject | undefined> {
    if (!isObjectId(oid)) return Promise.resolve(undefined);
    return this.ask(gitDir, 'check', oid);
  }

  /** Type and size of the entry at `path` in the tree of `treeish` (a commit or tree id). */
  infoAtPath(gitDir: string, treeish: string, path: string): Promise<CatfileObject | undefined> {
    if (!isObjectId(treeish) || !path || /[\n\r\0]/.test(path)) return Promise.resolve(undefined);
    return this.ask(gitDir, 'check', `${treeish}:${path}`);
  }

  /** Closes the processes of `gitDir` and of every repository under it (a removed or moved repository or owner). */
  forget(gitDir: string): void {
    this.pool.forget(gitDir);
  }

  /** How many long-lived processes are running (for tests and metrics). */
  get size(): number {
    return this.pool.size;
  }

  /** Process ids of the running cat-file processes of `gitDir` (for tests). */
  pidsOf(gitDir: string): number[] {
    return this.pool.pidsOf(gitDir, 'cat-file');
  }

  close(): void {
    this.pool.close();
  }

  private async ask(gitDir: string, kind: CatfileKind, line: string): Promise<CatfileObject | undefined> {
    // Reads are idempotent: a process that died under a request (killed, or started on a
    // repository being replaced) gets one fresh successor before the error is the caller's.
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.processFor(gitDir, kind).request(line);
      } catch (err) {
        if (!(err instanceof CatfileProcessExited) || attempt > 0) {
          throw err instanceof CatfileProcessExited ? new GitError(['cat-file'], null, err.message) : err;
        }
      }
    }
  }

  private processFor(gitDir: string, kind: CatfileKind): CatfileProcess {
    // A writer's reads get processes of their own, never queued behind a burst of reads.
    const lane = currentWriter() === undefined ? 'read' : 'write';
    return this.pool.get(`cat-file\0${kind}\0${lane}\0${gitDir}`, (gone) => new CatfileProcess(gitDir, kind, gone));
  }
}
