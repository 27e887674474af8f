// What a push changed, from the refs before and after `git receive-pack` (see
// src/git-http/receive-pack.ts for why refs are compared rather than hooks installed).

/** Ref name → object id. */
export type RefMap = Map<string, string>;

/** A commit's message, author and committer (times in unix seconds). */
export interface CommitSummary {
  message: string;
  authorName: string;
  authorEmail: string;
  authorTime: number;
  committerName: string;
  committerEmail: string;
  committerTime: number;
}

/** The paths one tree changes from another, as `git diff-tree --name-status --no-renames` names them. */
export interface PathChanges {
  added: string[];
  removed: string[];
  modified: string[];
}

/** A commit as a push reports it, with the files it changed. */
export interface CommitInfo extends CommitSummary, PathChanges {
  id: string;
}

export interface RefUpdate {
  ref: string;
  before: string;
  after: string;
}

export interface RefPush extends RefUpdate {
  commits: CommitInfo[];
  totalCommits: number;
}

/** Refs created, updated or deleted between two snapshots, in ref order. */
export function refUpdates(before: RefMap, after: RefMap, zero: string): RefUpdate[] {
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  const updates: RefUpdate[] = [];
  for (const ref of names) {
    const old = before.get(ref) ?? zero;
    const now = after.get(ref) ?? zero;
    if (old !== now) updates.push({ ref, before: old, after: now });
  }
  return updates;
}

/**
 * The default branch after a push: kept when it exists, else the first pushed branch
 * (Gitea sets it on the first push to an empty repository).
 */
export function defaultBranchAfterPush(current: string, after: RefMap): string {
  if (after.has(`refs/heads/${current}`)) return current;
  const branches = [...after.keys()].filter((r) => r.startsWith('refs/heads/')).sort();
  return branches.length ? branches[0].slice('refs/heads/'.length) : current;
}
