// Gitea's merge_when_checks_succeed (services/automerge): a merge kept for when the head's
// commit statuses succeed, one per pull, performed as its doer by the commit status
// consumer (events/auto-merge-consumer.ts) through the repository service's merge, which
// still applies every rule. Cancelled by its doer or a repository admin.
import { alreadyExists, DomainError, notFound, type Caller, type RepositoryScope } from '@anvil/kit';
import type { PullDeps } from './pulls.js';
import { requireAutoMergeCanceller, requireMergeScheduler } from './issue-rules.js';
import { requireNotArchived, scopedRepository } from './scope.js';

export interface AutoMerge {
  issueId: number;
  repositoryId: number;
  doerId: number;
  doerLogin: string;
  style: string;
  message: string;
  deleteBranchAfterMerge: boolean;
}

export interface AutoMergeStore {
  /** False when the pull already has one. */
  schedule(merge: AutoMerge): Promise<boolean>;
  find(issueId: number): Promise<AutoMerge | undefined>;
  remove(issueId: number): Promise<void>;
}

export interface AutoMergeDeps extends PullDeps {
  autoMerges: AutoMergeStore;
}

async function openPull(deps: AutoMergeDeps, scope: RepositoryScope | undefined, index: number) {
  const repository = scopedRepository(scope);
  const pull = await deps.pulls.find(repository.id, index);
  if (!pull) throw notFound('The target couldn\'t be found.', 'pull_not_found');
  return { repository, pull };
}

export async function scheduleAutoMerge(deps: AutoMergeDeps, scope: RepositoryScope | undefined, caller: Caller, index: number, input: { style: string; message: string; deleteBranchAfterMerge: boolean }): Promise<void> {
  const { repository, pull } = await openPull(deps, scope, index);
  requireNotArchived(repository);
  requireMergeScheduler(repository);
  if (pull.hasMerged) throw new DomainError('bad_request', 'The PR is already merged', 'already_merged');
  if (pull.issue.isClosed) throw notFound('The target couldn\'t be found.', 'pull_closed');
  const scheduled = await deps.autoMerges.schedule({
    issueId: pull.issue.id, repositoryId: repository.id, doerId: caller.userId, doerLogin: caller.login, ...input,
  });
  if (!scheduled) throw alreadyExists(`pull request is already scheduled to auto merge when checks succeed [pull_id: ${pull.issue.id}]`, 'auto_merge_exists');
}

export async function cancelAutoMerge(deps: AutoMergeDeps, scope: RepositoryScope | undefined, caller: Caller, index: number): Promise<void> {
  const { repository, pull } = await openPull(deps, scope, index);
  requireNotArchived(repository);
  const scheduled = await deps.autoMerges.find(pull.issue.id);
  if (!scheduled) throw notFound('The target couldn\'t be found.', 'auto_merge_not_found');
  requireAutoMergeCanceller(repository, caller, scheduled);
  await deps.autoMerges.remove(pull.issue.id);
}
