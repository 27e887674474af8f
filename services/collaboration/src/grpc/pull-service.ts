// anvil.collaboration.v1.PullService: decode the request, call the pull domain with the
// repository the gateway resolved (signed metadata), encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type collaboration } from '@anvil/proto';
import { changePullBase, createPull, getPull, getPullByBranches, listPulls } from '../domain/pulls.js';
import { cancelAutoMerge, scheduleAutoMerge } from '../domain/auto-merge.js';
import { mergePull, type PullMergeDeps } from '../domain/pull-merge.js';
import { assignableOf, pageOf } from './issue-service.js';
import { dateOf } from './messages.js';
import { pullMessage } from './pull-messages.js';

export const PULL_SERVICE_NAME = 'anvil.collaboration.v1.PullService';

export function pullService(deps: PullMergeDeps): ServiceImplementation<collaboration.PullServiceHandlers> {
  return {
    async CreatePull(request, { caller, repository }) {
      return pullMessage(await createPull(deps, repository, caller, {
        title: request.title, body: request.body, baseBranch: request.base_branch, headBranch: request.head_branch,
        headRepository: Number(request.head_repo_id) > 0
          ? { id: Number(request.head_repo_id), ownerLogin: request.head_owner_login, fork: request.head_repository?.repository ? request.head_repository : undefined }
          : undefined,
        facts: {
          headSha: request.head_sha, mergeBase: request.merge_base, mergeable: request.mergeable, conflictedFiles: request.conflicted_files,
          additions: request.additions, deletions: request.deletions, changedFiles: request.changed_files, baseSha: request.base_sha,
        },
        assignees: request.assignees, labels: request.labels, milestone: request.milestone, dueDate: dateOf(request.due_date),
        assignable: assignableOf(request.assignable),
      }));
    },
    async ListPulls(request, { repository }) {
      const { items, total } = await listPulls(deps, repository, {
        state: request.state, milestone: request.milestone, labels: request.labels, poster: request.poster, ...pageOf(request.page),
      });
      return { pulls: items.map(pullMessage), total };
    },
    async GetPull(request, { repository }) {
      return pullMessage(await getPull(deps, repository, request.index));
    },
    async GetPullByBranches(request, { repository }) {
      return pullMessage(await getPullByBranches(deps, repository, request.base_branch, request.head_branch, Number(request.head_repo_id ?? 0)));
    },
    async ChangePullBase(request, { caller, repository }) {
      return pullMessage(await changePullBase(deps, repository, caller, request.index, request.base_branch, {
        headSha: request.head_sha, mergeBase: request.merge_base, mergeable: request.mergeable, conflictedFiles: request.conflicted_files,
        additions: request.additions, deletions: request.deletions, changedFiles: request.changed_files,
      }));
    },
    async MergePull(request, { caller, repository }) {
      const done = await mergePull(deps, repository, caller, Number(request.index), {
        style: request.style, message: request.message, deleteBranchAfterMerge: request.delete_branch_after_merge, headCommitId: request.head_commit_id,
        forceMerge: request.force_merge, mergeCommitId: request.merge_commit_id, mergeWhenChecksSucceed: request.merge_when_checks_succeed,
      });
      return { scheduled: done === 'scheduled' };
    },
    async ScheduleAutoMerge(request, { caller, repository }) {
      await scheduleAutoMerge(deps, repository, caller, request.index, { style: request.style, message: request.message, deleteBranchAfterMerge: request.delete_branch_after_merge });
      return {};
    },
    async CancelAutoMerge(request, { caller, repository }) {
      await cancelAutoMerge(deps, repository, caller, request.index);
      return {};
    },
  };
}

export function pullGrpcService(deps: PullMergeDeps) {
  return {
    name: PULL_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.collaboration.v1.PullService.service,
    implementation: pullService(deps),
  };
}
