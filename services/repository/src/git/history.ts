// A branch's history walked from the cat-file cache instead of a `rev-list` per request:
// commits in git's default order (newest committer date first; parents queued in order,
// equal dates first come first served, as revision.c's commit_list_insert_by_date), read
// through the long-lived cat-file process. The whole walk from one head is remembered by
// that head's id (immutable-cache.ts): pages and totals of a commit list are slices of it.
import type { CommitRange } from '../domain/commits.js';
import type { RepositoryObjects } from './repository-objects.js';

/** Longer histories are left to rev-list (one process) rather than walked object by object. */
export const MAX_WALK = 10_000;

/** Committer seconds from a raw commit's committer line. */
function committerTime(date: string): number {
  const t = Date.parse(date);
  return Number.isFinite(t) ? t / 1000 : 0;
}

/**
 * Every commit reachable from `head`, in rev-list's default order; undefined when there are
 * more than `max` (the caller asks rev-list).
 */
export async function walkHistory(objects: RepositoryObjects, head: string, max = MAX_WALK): Promise<string[] | undefined> {
  const seen = new Set<string>([head]);
  const out: string[] = [];
  // Sorted newest first; a new entry goes after those of the same date.
  const queue: Array<{ id: string; time: number; parents: string[] }> = [];
  const insert = (entry: { id: string; time: number; parents: string[] }) => {
    let at = queue.length;
    while (at > 0 && queue[at - 1].time < entry.time) at--;
    queue.splice(at, 0, entry);
  };
  const read = async (id: string) => {
    const commit = await objects.commit(id);
    if (!commit) throw new Error(`commit ${id} is missing`);
    return { id, time: committerTime(commit.committer.date), parents: commit.parents };
  };
  insert(await read(head));
  while (queue.length) {
    const next = queue.shift()!;
    out.push(next.id);
    if (out.length > max) return undefined;
    const parents = next.parents.filter((p) => !seen.has(p));
    for (const p of parents) seen.add(p);
    // Parents are read together (pipelined on one process), queued in parent order.
    for (const entry of await Promise.all(parents.map(read))) insert(entry);
  }
  return out;
}

/** A range whose answer is a slice of the walk from its start (no path, dates or exclusions). */
export function isPlainRange(range: CommitRange): boolean {
  return !range.path && range.since === undefined && range.until === undefined && !range.exclude?.length && !range.excludeAll;
}
