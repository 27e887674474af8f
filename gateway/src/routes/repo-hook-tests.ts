// POST /repos/{owner}/{repo}/hooks/{id}/tests (routers/api/v1/repo/hook.go TestHook): a push
// of the latest commit of `ref` (the default branch when absent) delivered to that hook, by
// the caller, whatever events the hook chose. An empty repository sends a push of nothing.
import { DomainError } from '@anvil/kit';
import type { repository } from '@anvil/proto';
import { ApiError } from '../http/errors.js';
import { noContent, type Route, type RouteContext } from '../http/route.js';
import { repoHookScope } from './hooks.js';
import { repoRef, resolveRepo } from './repo-context.js';

const timestampOf = (date: string) => ({ seconds: Math.floor(Date.parse(date) / 1000), nanos: 0 });

function pushCommitOf(commit: repository.Commit): repository.PushCommitInput {
  return {
    id: commit.sha, message: commit.message,
    author: { name: commit.author?.name ?? '', email: commit.author?.email ?? '', when: timestampOf(commit.author?.date ?? '') },
    committer: { name: commit.committer?.name ?? '', email: commit.committer?.email ?? '', when: timestampOf(commit.committer?.date ?? '') },
    timestamp: timestampOf(commit.committer?.date ?? ''),
    added: [], removed: [], modified: [],
  };
}

async function latestCommit(ctx: RouteContext, revision: string): Promise<repository.Commit | undefined> {
  try {
    return await ctx.deps.services.commits.GetCommit({ ref: repoRef(ctx), sha: revision }, { caller: ctx.caller });
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'not_found') return undefined;
    throw err;
  }
}

export const repoHookTestRoutes: Route[] = [
  {
    method: 'POST', path: '/repos/:owner/:repo/hooks/:id/tests', operationId: 'repoTestHook', access: 'signed', scopes: ['repository'],
    repoAccess: 'admin',
    async handle(ctx) {
      const id = Number(ctx.params.id);
      if (!Number.isSafeInteger(id) || id <= 0) throw new ApiError(404, 'The target couldn\'t be found.');
      const scope = await repoHookScope(ctx);
      const access = await resolveRepo(ctx);
      const repo = access.repository!;
      const branch = typeof ctx.query.ref === 'string' && ctx.query.ref ? ctx.query.ref : repo.default_branch;
      const commit = repo.empty ? undefined : await latestCommit(ctx, branch);
      if (!commit && !repo.empty) throw new ApiError(404, `object does not exist [id: ${branch}, rel_path: ]`);
      const sha = commit?.sha ?? '';
      await ctx.deps.services.hooks.TestHook({
        ref: { scope, id },
        push: {
          repository: repo, ref: `refs/heads/${branch}`, before: sha, after: sha,
          pusher: { id: ctx.caller.userId, login: ctx.caller.login },
          commits: commit ? [pushCommitOf(commit)] : [], total_commits: commit ? 1 : 0,
          // What a real push event carries for the payload's repository and sender.
          repository_owner: access.owner, repository_parent: access.parent,
          sender: ctx.auth.user?.id === ctx.caller.userId ? ctx.auth.user : undefined,
        },
      }, { caller: ctx.caller });
      return noContent();
    },
  },
];
