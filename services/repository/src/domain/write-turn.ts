// Writes keep their own budget. Code running in a repository's write turn (write-lock.ts) is
// marked here, so that git work on its behalf never queues behind reads: it gets cat-file
// processes of its own (git/catfile-cache.ts) and skips the bound on git processes
// (git/process-slots.ts).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { GitRefRow } from './git-refs.js';

/** The row of the one ref a turn moved, handed to the writer that commits it (takeRefRow). */
export interface PendingRefRow {
  row: GitRefRow;
  /** The writer committed the row: the turn's end has nothing left to write. */
  written(): void;
}

/** How a write turn brings the refs table up to what it moved (write-lock.ts). */
export interface TurnRefs {
  settle(): Promise<void>;
  take(): PendingRefRow | undefined;
}

interface Turn {
  /** owner/name, lower-cased. */
  repository: string;
  refs: TurnRefs;
  /** Rows read in this turn (readOncePerTurn), by key. */
  read: Map<string, Promise<unknown>>;
}

const turn = new AsyncLocalStorage<Turn>();

const NO_REFS: TurnRefs = { settle: async () => {}, take: () => undefined };

/** Runs `work` as the writer of `repository` (owner/name, lower-cased). */
export function runAsWriter<T>(repository: string, work: () => Promise<T>, refs: TurnRefs = NO_REFS): Promise<T> {
  return turn.run({ repository, refs, read: new Map() }, work);
}

/**
 * A row a write turn asks for more than once, read once: a commit's committer is read for
 * its signature and again as the sender of the events that tell of it (a statement a write).
 * Outside a write turn, and after a failed read, `load` runs every time.
 */
export function readOncePerTurn<T>(key: string, load: () => Promise<T>): Promise<T> {
  const read = turn.getStore()?.read;
  if (!read) return load();
  let pending = read.get(key) as Promise<T> | undefined;
  if (!pending) {
    pending = load();
    read.set(key, pending);
    pending.catch(() => read.delete(key));
  }
  return pending;
}

/** The repository whose write turn the current code runs in, if any. */
export function currentWriter(): string | undefined {
  return turn.getStore()?.repository;
}

/**
 * Brings the repository's refs table up to what the turn moved in git, now instead of at the
 * turn's end. A writer calls it after its last ref move and before it commits the events
 * that tell of the move (push, branch.*, tag.*): a subscriber that reads branches on such an
 * event then finds the new head, never the old one. Outside a write turn it does nothing.
 */
export function settleRefs(): Promise<void> {
  return turn.getStore()?.refs.settle() ?? Promise.resolve();
}

/**
 * Instead of settleRefs, for a writer that commits the events of its move in one statement:
 * the row of the one ref the turn moved (when it knows it: a commit it wrote, noteMove), to
 * write in that same statement, so the row lands with the events, never after them, with
 * one round trip fewer. Call `written()` once that statement committed the row; otherwise
 * the turn's end rewrites the rows from git. Undefined (outside a turn, or a turn that moved
 * more, or something whose row it does not know): settle with settleRefs.
 */
export function takeRefRow(): PendingRefRow | undefined {
  return turn.getStore()?.refs.take();
}
