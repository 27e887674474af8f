// One queue per repository for everything that moves its refs in this process: a `git push`
// (whose before/after ref snapshots must bracket that push alone, or another writer's commit
// would be published again under the pusher's name), contents API commits and branch API
// updates. Writers of one repository take turns, so concurrent API writes to different files
// all land instead of all but one losing the `update-ref` race. Across replicas the
// `update-ref <ref> <new> <old>` compare-and-swap still guards every write: a loser there is
// refused with a conflict and nothing is lost. Keyed by owner/name as the request names them
// (case-insensitively), so the gRPC adapters can take the turn before the domain resolves.
// A writer whose caller stopped waiting before its turn came (`signal`: the gateway's
// deadline passed and it answered with an error) is skipped, so nothing lands that its
// client was told had failed.
import { DomainError } from '@anvil/kit';
import type { GitRefRow } from './git-refs.js';
import { currentWriter, runAsWriter, type TurnRefs } from './write-turn.js';

/**
 * True inside a write turn of owner/name: a writer reading back what it just moved (before
 * `afterTurn` rewrote the refs table) must read git, not the table.
 */
export function inWriteTurn(owner: string, name: string): boolean {
  return currentWriter() === `${owner}/${name}`.toLowerCase();
}

// `afterTurn` runs at the end of every turn that ran, before the next writer's: the refs
// table is rewritten from git there (git/ref-index.ts), so it moves with every ref change of
// a push or an API write. A writer that publishes events about its move runs it earlier,
// before those events commit (settleRefs in write-turn.ts); the turn's end then has nothing
// left to write. Its failure is reported, not thrown: the write itself landed.

export interface WriteTurnHooks {
  afterTurn?(owner: string, name: string): Promise<void>;
  onAfterTurnError?(err: unknown, repository: string): void;
  /** The row of the one ref this turn moved, taken to be written with its events (takeRefRow in write-turn.ts). */
  takeMove?(owner: string, name: string): GitRefRow | undefined;
}

export class RepositoryWriteLock {
  private readonly tails = new Map<string, Promise<void>>();

  constructor(private readonly hooks: WriteTurnHooks = {}) {}

  async run<T>(owner: string, name: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const key = `${owner}/${name}`.toLowerCase();
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    await previous;
    try {
      if (signal?.aborted) throw new DomainError('unavailable', 'the caller stopped waiting before its turn to write', 'abandoned');
      let settled = false;
      const syncRefs = () => this.hooks.afterTurn?.(owner, name).catch((err) => this.hooks.onAfterTurnError?.(err, key));
      const refs: TurnRefs = {
        async settle() {
          settled = true;
          await syncRefs();
        },
        take: () => {
          const row = this.hooks.takeMove?.(owner, name);
          return row && { row, written: () => { settled = true; } };
        },
      };
      try {
        return await runAsWriter(key, work, refs);
      } finally {
        if (!settled) await syncRefs();
      }
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
