// anvil.collaboration.v1.IssueService: decode the request, call the issue domain with the
// repository the gateway resolved (signed metadata), encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type collaboration } from '@anvil/proto';
import { listIssueDependencies, setIssueDependency, type DependencyDeps } from '../domain/issue-dependencies.js';
import { moveIssuePin, pinIssue, pinnedIssues, unpinIssue, type PinDeps } from '../domain/issue-pins.js';
import { searchIssues, type SearchDeps } from '../domain/issue-search.js';
import { changeIssueAssignees, createIssue, deleteIssue, editIssue, getIssue, listIssues, setIssueDeadline, setIssueLock } from '../domain/issues.js';
import { dateOf, issueListMessage, issueMessage } from './messages.js';

export const ISSUE_SERVICE_NAME = 'anvil.collaboration.v1.IssueService';

/** A page request as offset and limit: page from 1, limit 1..1000 (30 when unset; the gateway clamps to the API settings). */
export function pageOf(page: { page?: number; limit?: number } | null | undefined): { offset: number; limit: number } {
  const limit = Math.min(Math.max(page?.limit || 30, 1), 1000);
  return { offset: (Math.max(page?.page || 1, 1) - 1) * limit, limit };
}

/** The assignable users the gateway sent, as ids; undefined when it sent none. */
export const assignableOf = (message: { ids: Array<number | string> } | null | undefined) => (message ? message.ids.map(Number) : undefined);

export function issueService(deps: PinDeps & DependencyDeps & SearchDeps): ServiceImplementation<collaboration.IssueServiceHandlers> {
  return {
    async ListIssues(request, { caller: _caller, repository }) {
      const { items, total } = await listIssues(deps, repository, {
        state: request.state, type: request.type, labels: request.labels, milestones: request.milestones, q: request.q,
        since: dateOf(request.since), before: dateOf(request.before),
        createdBy: request.created_by, assignedBy: request.assigned_by, mentionedBy: request.mentioned_by, ...pageOf(request.page),
      });
      return issueListMessage(items, total);
    },
    async GetIssue(request, { repository }) {
      return issueMessage(await getIssue(deps, repository, request.index));
    },
    async CreateIssue(request, { caller, repository }) {
      return issueMessage(await createIssue(deps, repository, caller, {
        title: request.title, body: request.body, ref: request.ref, assignees: request.assignees, labels: request.labels,
        milestone: request.milestone, dueDate: dateOf(request.due_date), closed: request.closed, assignable: assignableOf(request.assignable),
      }));
    },
    async EditIssue(request, { caller, repository }) {
      const dueDate = request.unset_due_date ? null : dateOf(request.due_date);
      return issueMessage(await editIssue(deps, repository, caller, request.index, {
        title: request.title ?? undefined, body: request.body ?? undefined, ref: request.ref ?? undefined, state: request.state ?? undefined,
        milestone: request.milestone ?? undefined, assignees: request.set_assignees ? request.assignees : undefined, dueDate,
        assignable: assignableOf(request.assignable),
      }));
    },
    async DeleteIssue(request, { caller, repository }) {
      await deleteIssue(deps, repository, caller, request.index);
      return {};
    },
    async SetIssueDeadline(request, { caller, repository }) {
      return issueMessage(await setIssueDeadline(deps, repository, caller, request.index, dateOf(request.due_date) ?? null));
    },
    async PinIssue(request, { repository }) {
      await pinIssue(deps, repository, request.index);
      return {};
    },
    async UnpinIssue(request, { repository }) {
      await unpinIssue(deps, repository, request.index);
      return {};
    },
    async MoveIssuePin(request, { repository }) {
      await moveIssuePin(deps, repository, request.index, request.position);
      return {};
    },
    async ListPinnedIssues(_request, { repository }) {
      const issues = await pinnedIssues(deps, repository);
      return issueListMessage(issues, issues.length);
    },
    async ListIssueDependencies(request, { repository }) {
      const { items, total } = await listIssueDependencies(deps, repository, request.index, request.blocks, pageOf(request.page));
      return issueListMessage(items, total);
    },
    async SetIssueDependency(request, { repository }) {
      return issueMessage(await setIssueDependency(deps, repository, request.index, request.other_index, request.blocks, request.add, Number(request.other_repository_id)));
    },
    async ChangeIssueAssignees(request, { caller, repository }) {
      return issueMessage(await changeIssueAssignees(deps, repository, caller, request.index, request.assignees, request.add, assignableOf(request.assignable)));
    },
    async SearchIssues(request, { caller }) {
      const { items, total } = await searchIssues(deps, caller, {
        repositoryIds: request.repository_ids.map(Number), state: request.state, type: request.type, labels: request.labels, milestones: request.milestones,
        q: request.q, since: dateOf(request.since), before: dateOf(request.before), assigned: request.assigned, created: request.created,
        mentioned: request.mentioned, reviewRequested: request.review_requested, reviewed: request.reviewed, createdBy: request.created_by, ...pageOf(request.page),
      });
      return issueListMessage(items, total);
    },
    async SetIssueLock(request, { caller, repository }) {
      await setIssueLock(deps, repository, caller, request.index, request.locked, request.reason);
      return {};
    },
  };
}

export function issueGrpcService(deps: PinDeps & DependencyDeps & SearchDeps) {
  return {
    name: ISSUE_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.collaboration.v1.IssueService.service,
    implementation: issueService(deps),
  };
}
