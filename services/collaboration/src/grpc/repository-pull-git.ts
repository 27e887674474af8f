// Collaboration's one client of the repository service: the git facts of a pull after a push
// (pull_git.proto), asked as the system, since a push event has no caller to forward. Only
// event consumers call it, so there is no gateway resolution to forward either: the
// repository service resolves the repository for these callers itself (its repositoryOf).
import { createServiceClient, DomainError, SYSTEM, type ServiceClient } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import type { PullGitReader } from '../domain/pull-sync.js';
import type { PullMerger } from '../domain/pull-merge.js';

export function repositoryPullGit(address: string, secret: string): PullGitReader<repository.Repository> & { close(): void } {
  const client: ServiceClient<repository.PullGitServiceClient> = createServiceClient(loadAnvilGrpc().anvil.repository.v1.PullGitService, address, secret, { deadlineMs: 60_000 });
  const options = { caller: SYSTEM };
  return {
    async compare(ref, base, head) {
      const range = { ref, base: `refs/heads/${base}`, head };
      try {
        const [checked, counts, stats] = await Promise.all([
          client.CheckMergeability(range, options), client.CountDivergingCommits(range, options), client.GetDiffStats({ ...range, page: 1, limit: 0 }, options),
        ]);
        return {
          headSha: checked.head_sha, baseSha: checked.base_sha, mergeBase: checked.merge_base, mergeable: checked.mergeable,
          conflictedFiles: checked.conflicted_files, additions: Number(stats.additions), deletions: Number(stats.deletions),
          changedFiles: Number(stats.changed_files), ahead: Number(counts.ahead),
        };
      } catch (err) {
        // A branch that is gone (or histories that share nothing) leave the pull as it was.
        if (err instanceof DomainError && (err.kind === 'not_found' || err.kind === 'bad_request')) return undefined;
        throw err;
      }
    },
    async keepHead(ref, index, sha) {
      await client.UpdatePullRef({ ref, index, head: sha }, options);
    },
    async fetchForkHead(baseRepositoryId, headRepositoryId, headBranch, index) {
      try {
        const reply = await client.FetchForkHead({
          repository_id: baseRepositoryId, head_repository_id: headRepositoryId, head_branch: headBranch, index,
        }, options);
        return reply.base?.repository ? { base: reply.base.repository } : undefined;
      } catch (err) {
        // A base or fork deleted meanwhile, or the branch gone: the pull keeps its last head.
        if (err instanceof DomainError && err.kind === 'not_found') return undefined;
        throw err;
      }
    },
    close: () => client.close(),
  };
}

/**
 * The merges collaboration asks for (POST /pulls/{index}/merge, and merge_when_checks_succeed
 * when the checks succeed), as their doer, forwarding the gateway's resolution when there is one.
 */
export function repositoryMerger(address: string, secret: string): PullMerger & { close(): void } {
  const anvil = loadAnvilGrpc().anvil.repository.v1;
  const pulls: ServiceClient<repository.PullGitServiceClient> = createServiceClient(anvil.PullGitService, address, secret, { deadlineMs: 60_000 });
  const statuses: ServiceClient<repository.CommitStatusServiceClient> = createServiceClient(anvil.CommitStatusService, address, secret);
  return {
    async checksSucceeded(ref, sha) {
      const combined = await statuses.GetCombinedStatus({ ref, revision: sha, page: { page: 1, limit: 1 } }, { caller: SYSTEM });
      return combined.state === 'success';
    },
    async merge(ref, doer, input, scope) {
      const merged = await pulls.MergeToRef({
        ref, base_branch: input.baseBranch, head: input.head, style: input.style, message: input.message,
        expected_head_sha: input.expectedHeadSha, pull_index: input.pullIndex, pull_title: input.pullTitle,
        delete_head_branch: input.deleteHeadBranch, default_delete_head_branch: input.defaultDeleteHeadBranch ?? '',
        author_name: '', author_email: '', reviews: {
          verdicts: input.verdicts.map((v) => ({ reviewer_id: v.reviewerId, state: v.state, official: v.official, stale: v.stale })),
        }, force_merge: input.forceMerge ?? false, merge_commit_id: input.mergeCommitId ?? '',
        known_base_sha: input.knownBaseSha ?? '', known_head_sha: input.knownHeadSha ?? '',
      }, { caller: doer, repository: scope });
      return { mergeCommitSha: merged.merge_commit_sha, headSha: merged.head_sha };
    },
    close: () => {
      pulls.close();
      statuses.close();
    },
  };
}
