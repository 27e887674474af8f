// Records what a push changed, after `git receive-pack` finished.
//
// Why compare refs before/after instead of a post-receive hook: with --stateless-rpc the
// receive-pack runs inside this process's request, so the service already knows the
// pusher and the repository, and a hook would need its own way back into the service
// (a binary, a socket, credentials in the environment). Pushes to one repository are
// serialized in this process (see domain/write-lock.ts), so the two snapshots bracket exactly one
// push. The repository service is one StatefulSet replica per git volume, so no other
// process writes the same repository. Branch protection runs before the refs move, in the
// pre-receive hook that calls back into this service (src/git-http/pre-receive.ts).
import type { Logger } from '@anvil/kit';
import type { RepositoryDeps } from '../domain/repositories.js';
import { defaultBranchAfterPush, refUpdates, type RefPush } from '../domain/push.js';
import type { Repository } from '../domain/repository.js';
import type { RepositoryEvent } from '../domain/store.js';
import { commitsBetween, type RefMap } from '../git/refs.js';
import { setHead } from '../git/storage.js';
import { settleRefs } from '../domain/write-turn.js';

const MAX_COMMITS_PER_PUSH = 100;

export interface PushContext {
  deps: RepositoryDeps;
  log: Logger;
  gitDir: string;
  repositoryId: number;
  pusher: { id: number; login: string };
  sizeOf(): Promise<number>;
}

export async function recordPush(ctx: PushContext, before: RefMap, after: RefMap): Promise<void> {
  const found = await ctx.deps.store.findById(ctx.repositoryId);
  if (!found) return; // deleted while the push ran
  const repo = found.repository;
  const zero = '0'.repeat(repo.object_format_name === 'sha256' ? 64 : 40);
  const updates = refUpdates(before, after, zero);
  if (updates.length === 0) return;

  const pushes: RefPush[] = [];
  for (const update of updates) {
    if (update.after === zero) {
      pushes.push({ ...update, commits: [], totalCommits: 0 });
      continue;
    }
    // A new ref lists commits no ref had before the push; an update lists before..after.
    const exclude = update.before === zero ? [...new Set(before.values())] : [update.before];
    const { commits, total } = await commitsBetween(ctx.gitDir, update.after, exclude, MAX_COMMITS_PER_PUSH);
    pushes.push({ ...update, commits, totalCommits: total });
  }

  const hasBranches = [...after.keys()].some((r) => r.startsWith('refs/heads/'));
  const defaultBranch = defaultBranchAfterPush(repo.default_branch, after);
  const size = await ctx.sizeOf();
  await settleRefs();
  await ctx.deps.store.transaction(async (tx) => {
    const updated: Repository = await tx.update(repo.id, { empty: !hasBranches, default_branch: defaultBranch, size });
    for (const push of pushes) {
      for (const event of refEvents(updated, push, zero, ctx.pusher)) await tx.publish(event);
    }
  });
  if (defaultBranch !== repo.default_branch) await setHead(ctx.gitDir, defaultBranch);
  ctx.log.info({ repository: repo.id, refs: updates.length }, 'push recorded');
}

function refEvents(repository: Repository, push: RefPush, zero: string, pusher: { id: number; login: string }): RepositoryEvent[] {
  const events: RepositoryEvent[] = [];
  const isTag = push.ref.startsWith('refs/tags/');
  const kindPrefix = isTag ? 'tag' : push.ref.startsWith('refs/heads/') ? 'branch' : undefined;
  const name = push.ref.replace(/^refs\/(heads|tags)\//, '');
  if (kindPrefix && push.before === zero) {
    events.push({ kind: `${kindPrefix}.created` as 'branch.created', repository, name, ref: push.ref, sha: push.after, pusher });
  }
  events.push({ kind: 'push', repository, push, pusher });
  if (kindPrefix && push.after === zero) {
    events.push({ kind: `${kindPrefix}.deleted` as 'branch.deleted', repository, name, ref: push.ref, sha: push.before, pusher });
  }
  return events;
}
