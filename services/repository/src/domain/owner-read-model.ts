// The rules that keep the owner read model in step with identity's user events. Each
// change runs inside the consumer's processed-event transaction, so an event is applied
// at most once; these rules make a late or out-of-order one harmless.
import type { Owner } from './owner.js';

/** How the read model is written; src/store/owners.ts implements it over a transaction. */
export interface OwnerWriter {
  /** Whether identity deleted this owner (ids are never reused). */
  isDeleted(id: number): Promise<boolean>;
  /** Inserts the owner unless a row with its id exists. */
  insertIfAbsent(owner: Owner): Promise<void>;
  /** Inserts or replaces the owner with this id. */
  save(owner: Owner): Promise<void>;
  /** Removes the owner and remembers its id as deleted. */
  remove(id: number): Promise<void>;
}

export type OwnerChange =
  | { kind: 'created'; owner: Owner }
  | { kind: 'updated'; owner: Owner }
  | { kind: 'deleted'; id: number };

export type ApplyOutcome = 'applied' | 'ignored_stale';

export async function applyOwnerChange(owners: OwnerWriter, change: OwnerChange): Promise<ApplyOutcome> {
  switch (change.kind) {
    case 'created':
      // A creation is the first thing that happens to a user: a stored row is at least as
      // new, and a deleted user stays deleted (the creation was retried after later events).
      if (await owners.isDeleted(change.owner.id)) return 'ignored_stale';
      await owners.insertIfAbsent(change.owner);
      return 'applied';
    case 'updated':
      // The payload carries the whole state after the change, so the last one wins.
      // The events carry no version, so an update cannot be told older than what is stored,
      // except that nothing revives a deleted owner.
      if (await owners.isDeleted(change.owner.id)) return 'ignored_stale';
      await owners.save(change.owner);
      return 'applied';
    case 'deleted':
      await owners.remove(change.id);
      return 'applied';
  }
}
