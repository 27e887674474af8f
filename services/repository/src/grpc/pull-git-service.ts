// anvil.repository.v1.PullGitService: decode the request, call the pull git domain, encode
// the reply. The repository is the gateway's signed resolution when it sent one (the route
// table asked for the permission; requests.ts repositoryOf), else resolved here for the caller
// (collaboration's consumers call as the system or a merge's doer). Merges and pull refs
// take the repository's write turn (domain/write-lock.ts) and resolve inside it.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import { checkMergeability, countDiverging, diffHunks, diffStats, getMergeBase, listPullCommits, pullDiff, type PullCommitInfo } from '../domain/pull-git.js';
import { countAheadEarly, mergeToRef, updatePullRef, type PullMergeDeps } from '../domain/pull-merge.js';
import { updateForkPullHead, updatePullHead } from '../domain/pull-update.js';
import { fetchForkHead, resolveForkPair, type ForkHeadGit } from '../domain/fork-heads.js';
import { accessReply } from './repository-service.js';
import type { RepositoryWriteLock } from '../domain/write-lock.js';
import { pageOf, refOf, repositoryOf } from './requests.js';

export const PULL_GIT_SERVICE_NAME = 'anvil.repository.v1.PullGitService';

type LockedDeps = PullMergeDeps & { writeLock: RepositoryWriteLock; forkHeads: ForkHeadGit };

function commitMessage(c: PullCommitInfo): repository.PullCommitInput {
  return {
    sha: c.sha, parents: c.parents, message: c.message, tree_sha: c.treeSha,
    author_name: c.author.name, author_email: c.author.email, author_date: c.author.date,
    committer_name: c.committer.name, committer_email: c.committer.email, committer_date: c.committer.date,
  };
}

export function pullGitService(deps: LockedDeps): ServiceImplementation<repository.PullGitServiceHandlers> {
  return {
    async GetMergeBase(request, context) {
      const r = await getMergeBase(deps, await repositoryOf(deps.store, refOf(request), context), request.base, request.head);
      return { merge_base: r.mergeBase, base_sha: r.baseSha, head_sha: r.headSha };
    },
    async CountDivergingCommits(request, context) {
      const r = await countDiverging(deps, await repositoryOf(deps.store, refOf(request), context), request.base, request.head);
      return { ahead: r.ahead, behind: r.behind, base_sha: r.baseSha, head_sha: r.headSha };
    },
    async CheckMergeability(request, context) {
      const r = await checkMergeability(deps, await repositoryOf(deps.store, refOf(request), context), request.base, request.head);
      return { mergeable: r.mergeable, conflicted_files: r.conflictedFiles, base_sha: r.baseSha, head_sha: r.headSha, merge_base: r.mergeBase, tree_sha: r.treeSha };
    },
    async GetDiffStats(request, context) {
      const page = request.limit > 0 ? pageOf({ page: request.page, limit: request.limit }) : { offset: 0, limit: 0 };
      const r = await diffStats(deps, await repositoryOf(deps.store, refOf(request), context), request.base, request.head, page);
      return {
        additions: r.additions, deletions: r.deletions, changed_files: r.changedFiles, merge_base: r.mergeBase, head_sha: r.headSha,
        files: r.files.map((f) => ({
          filename: f.filename, status: f.status, additions: f.additions, deletions: f.deletions,
          changes: f.additions + f.deletions, previous_filename: f.previousFilename,
        })),
      };
    },
    async ListPullCommits(request, context) {
      const r = await listPullCommits(deps, await repositoryOf(deps.store, refOf(request), context), request.base, request.head, pageOf({ page: request.page, limit: request.limit }));
      return { commits: r.commits.map(commitMessage), total: r.total };
    },
    async GetPullDiff(request, context) {
      return { text: await pullDiff(deps, await repositoryOf(deps.store, refOf(request), context), request.base, request.head, request.diff_type) };
    },
    async UpdatePullRef(request, context) {
      const ref = refOf(request);
      const sha = await deps.writeLock.run(ref.owner, ref.name, async () => updatePullRef(deps, await repositoryOf(deps.store, ref, context), request.index, request.head), context.signal);
      return { head_sha: sha };
    },
    async CutDiffHunks(request, context) {
      const lines = request.lines.map((l) => ({ path: l.path, line: Number(l.line) }));
      return { hunks: await diffHunks(deps, await repositoryOf(deps.store, refOf(request), context), request.base, request.head, lines) };
    },
    async UpdatePullHead(request, context) {
      const { caller, signal } = context;
      const ref = refOf(request);
      const input = { baseBranch: request.base_branch, headBranch: request.head_branch, style: request.style };
      // A fork's head: the update lands in the fork, in the fork's write turn.
      const r = Number(request.head_repository_id) > 0
        ? await updateForkPullHead(deps, await repositoryOf(deps.store, ref, context), Number(request.head_repository_id), input, caller,
          (headOwner, headName, work) => deps.writeLock.run(headOwner, headName, work, signal))
        : await deps.writeLock.run(ref.owner, ref.name, async () => updatePullHead(deps, await repositoryOf(deps.store, ref, context), input, caller), signal);
      return { head_before: r.headBefore, head_sha: r.headSha };
    },
    async FetchForkHead(request, { caller, signal }) {
      const pair = await resolveForkPair(deps.store, {
        base: request.ref?.owner ? request.ref : { id: Number(request.repository_id) },
        head: request.head_owner ? { owner: request.head_owner } : { id: Number(request.head_repository_id) },
      }, caller);
      const { owner, repository } = pair.base;
      const sha = await deps.writeLock.run(owner.login, repository.name, () => fetchForkHead(deps.forkHeads, pair, request.head_branch, Number(request.index)), signal);
      return { head_sha: sha, base: accessReply(pair.base), head: accessReply(pair.head) };
    },
    async MergeToRef(request, context) {
      const ref = refOf(request);
      countAheadEarly(deps, ref.owner, ref.name, request.known_base_sha, request.known_head_sha);
      const r = await deps.writeLock.run(ref.owner, ref.name, async () => mergeToRef(deps, await repositoryOf(deps.store, ref, context), {
        baseBranch: request.base_branch, head: request.head, style: request.style, message: request.message,
        expectedHeadSha: request.expected_head_sha, pullIndex: request.pull_index, pullTitle: request.pull_title,
        deleteHeadBranch: request.delete_head_branch,
        author: request.author_name ? { name: request.author_name, email: request.author_email } : undefined,
        reviews: (request.reviews?.verdicts ?? []).map((v) => ({ reviewerId: v.reviewer_id, state: v.state, official: v.official, stale: v.stale })),
        forceMerge: request.force_merge, mergeCommitId: request.merge_commit_id, defaultDeleteHeadBranch: request.default_delete_head_branch,
      }, context.caller), context.signal);
      return { merge_commit_sha: r.mergeCommitSha, base_before: r.baseBefore, head_sha: r.headSha, head_branch_deleted: r.headBranchDeleted };
    },
  };
}

export function pullGitGrpcService(deps: LockedDeps) {
  return {
    name: PULL_GIT_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.repository.v1.PullGitService.service,
    implementation: pullGitService(deps),
  };
}
