// The paths two trees differ in, as `git diff-tree -r --name-status --no-renames` lists them
// (added, removed, modified; a type change counts as modified, a file that became a directory
// as removed plus the directory's files added), read over the cat-file cache: a merge that
// built its commit itself describes it in its push event without starting `git log`. Only
// subtrees whose ids differ are opened, so the cost follows the change, not the tree.
import type { PathChanges } from '../domain/push.js';
import type { RawTreeEntry, RepositoryObjects } from './repository-objects.js';

/** git's tree order, which trees are stored in: names compared bytewise, a directory's as if it ended in `/`. */
const orderKey = (e: RawTreeEntry) => Buffer.from(e.type === 'tree' ? `${e.name}/` : e.name);

async function entriesOf(objects: RepositoryObjects, tree: string | undefined): Promise<RawTreeEntry[]> {
  if (!tree) return [];
  const entries = await objects.tree(tree);
  if (!entries) throw new Error(`not a tree: ${tree}`);
  return entries;
}

/** `from` undefined: everything in `to` is added (and the reverse). */
export async function diffTrees(objects: RepositoryObjects, from: string | undefined, to: string | undefined): Promise<PathChanges> {
  const changes: PathChanges = { added: [], removed: [], modified: [] };
  await walk(objects, from, to, '', changes);
  return changes;
}

async function walk(objects: RepositoryObjects, from: string | undefined, to: string | undefined, prefix: string, out: PathChanges): Promise<void> {
  if (from === to) return;
  const [before, after] = await Promise.all([entriesOf(objects, from), entriesOf(objects, to)]);
  // Both lists are in tree order already; walking them side by side is git's diff-tree.
  const keyed = (entries: RawTreeEntry[]) => entries.map((e) => ({ e, key: orderKey(e) }));
  const left = keyed(before);
  const right = keyed(after);
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    const order = i >= left.length ? 1 : j >= right.length ? -1 : Buffer.compare(left[i].key, right[j].key);
    if (order < 0) {
      await gone(objects, left[i++].e, prefix, out);
    } else if (order > 0) {
      await came(objects, right[j++].e, prefix, out);
    } else {
      const a = left[i++].e;
      const b = right[j++].e;
      const path = prefix + a.name;
      if (a.type === 'tree') await walk(objects, a.sha, b.sha, `${path}/`, out);
      else if (a.sha !== b.sha || a.mode !== b.mode) out.modified.push(path);
    }
  }
}

async function gone(objects: RepositoryObjects, entry: RawTreeEntry, prefix: string, out: PathChanges): Promise<void> {
  if (entry.type === 'tree') return walk(objects, entry.sha, undefined, `${prefix}${entry.name}/`, out);
  out.removed.push(prefix + entry.name);
}

async function came(objects: RepositoryObjects, entry: RawTreeEntry, prefix: string, out: PathChanges): Promise<void> {
  if (entry.type === 'tree') return walk(objects, undefined, entry.sha, `${prefix}${entry.name}/`, out);
  out.added.push(prefix + entry.name);
}
