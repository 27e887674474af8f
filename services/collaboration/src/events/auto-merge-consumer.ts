// Performs scheduled merges (merge_when_checks_succeed) when a commit status makes a pull's
// head succeed (Gitea's services/automerge on commit status): the repository service merges
// as the doer, applying every rule again; a merge still refused stays scheduled for the next
// status. Idempotent: a redelivered status finds the pull merged and its schedule gone.
import type { Caller, ConsumerOptions, Logger } from '@anvil/kit';
import { DomainError } from '@anvil/kit';
import type { repository } from '@anvil/proto';
import type { PullStore } from '../domain/pull-store.js';
import type { PullMerger } from '../domain/pull-merge.js';
import { autoMergesAtHead } from '../store/auto-merges.js';
import type { CollaborationTx } from '../store/db.js';
import { storeManualMerge } from '../store/pull-sync.js';
import { consumerContextOf } from './push-consumer.js';

export const AUTO_MERGE_CONSUMER = 'collaboration-auto-merge';

export function autoMergeConsumer(log: Logger, stores: { pulls: PullStore }, merger: () => PullMerger): Omit<ConsumerOptions<CollaborationTx>, 'db' | 'bus' | 'log'> {
  return {
    durable: AUTO_MERGE_CONSUMER,
    filter: 'repository.status',
    async handle(event, tx) {
      const status = event.payload as repository.CommitStatusCreated | undefined;
      const repo = status?.repository;
      if (!status || !repo?.id || status.state !== 'success') return;
      const due = await autoMergesAtHead(tx, Number(repo.id), status.sha);
      if (!due.length) return;
      const name = { owner: repo.owner_login, name: repo.name };
      if (!(await merger().checksSucceeded(name, status.sha))) return;
      for (const scheduled of due) {
        const found = await stores.pulls.findWithVerdicts(Number(repo.id), scheduled.index);
        if (!found) continue;
        const { pull, verdicts } = found;
        const doer: Caller = { userId: scheduled.doerId, login: scheduled.doerLogin, isAdmin: false, restricted: false, scopes: ['all'] };
        // A fork's head is merged from the base's copy of it; its branch is the fork's to keep.
        const fromFork = pull.headRepoId !== Number(repo.id);
        try {
          const merged = await merger().merge(name, doer, {
            baseBranch: scheduled.baseBranch, head: fromFork ? `refs/pull/${scheduled.index}/head` : `refs/heads/${scheduled.headBranch}`,
            style: scheduled.style, message: scheduled.message,
            pullIndex: scheduled.index, pullTitle: scheduled.title, deleteHeadBranch: scheduled.deleteBranchAfterMerge && !fromFork ? scheduled.headBranch : '',
            expectedHeadSha: scheduled.headSha, verdicts,
          });
          await storeManualMerge(tx, consumerContextOf(repo, { id: scheduled.doerId, login: scheduled.doerLogin }, { repository_owner: status.repository_owner, repository_parent: status.repository_parent }), {
            issueId: scheduled.issueId, index: scheduled.index, repositoryId: Number(repo.id), baseBranch: scheduled.baseBranch,
            headBranch: scheduled.headBranch, headRepoId: pull.headRepoId, headSha: scheduled.headSha,
          }, { headSha: merged.headSha, mergeCommitSha: merged.mergeCommitSha, mergedById: scheduled.doerId });
          await tx.pullAutoMerge.deleteMany({ where: { issue_id: BigInt(scheduled.issueId) } });
          log.info({ repository: repo.id, pull: scheduled.index }, 'scheduled merge performed');
        } catch (err) {
          // The repository service away: redeliver the status later instead of dropping the merge.
          if (!(err instanceof DomainError) || err.kind === 'unavailable') throw err;
          log.info({ repository: repo.id, pull: scheduled.index, reason: err.reason }, 'scheduled merge still refused; kept');
        }
      }
    },
  };
}
