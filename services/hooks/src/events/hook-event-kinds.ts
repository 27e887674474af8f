// Which published events fire webhooks, one row per subject: the webhook event it is, the
// repository it happened in, the branch a hook's branch filter looks at, and Gitea's payload.
// Adding an event kind (collaboration's issues, comments, labels, ...) is one row here, once
// its subject and message are on the stream: the consumer reads every subject and skips
// those without a row.
import type { collaboration as cpb, repository as pb } from '@anvil/proto';
import type { HookEvent } from '../domain/hook-events.js';
import { commentPayload, issuePayload, pullPayloadOfIssueEvent, pullPayloadOfPullEvent } from '../payloads/collaboration.js';
import { createPayload, deletePayload, forkPayload, pushPayload, repositoryPayload, shortRef, statusPayload } from '../payloads/gitea.js';

export interface HookEventKind<P = any> {
  /** The webhook event; for collaboration's events it depends on the payload (issue or pull). */
  event: HookEvent | ((payload: P) => HookEvent | undefined);
  repository(payload: P): pb.Repository;
  /** For push, create and delete: what `branch_filter` is matched against (Gitea's checkBranch). */
  branch?(payload: P): string;
  build(payload: P, rootUrl: string): Record<string, unknown>;
}

const kind = <P>(row: HookEventKind<P>): HookEventKind<P> => row;

export const HOOK_EVENT_KINDS: Record<string, HookEventKind> = {
  'repository.push': kind<pb.Push>({
    event: 'push', repository: (p) => p.repository!, branch: (p) => shortRef(p.ref), build: pushPayload,
  }),
  'repository.branch.created': kind<pb.RefChanged>({
    event: 'create', repository: (p) => p.repository!, branch: (p) => p.name, build: createPayload,
  }),
  'repository.tag.created': kind<pb.RefChanged>({
    event: 'create', repository: (p) => p.repository!, branch: (p) => p.name, build: createPayload,
  }),
  'repository.branch.deleted': kind<pb.RefChanged>({
    event: 'delete', repository: (p) => p.repository!, branch: (p) => p.name, build: deletePayload,
  }),
  'repository.tag.deleted': kind<pb.RefChanged>({
    event: 'delete', repository: (p) => p.repository!, branch: (p) => p.name, build: deletePayload,
  }),
  'repository.repo.created': kind<pb.RepositoryCreated>({
    event: 'repository', repository: (p) => p.repository!, build: (p, root) => repositoryPayload('created', p, root),
  }),
  'repository.repo.deleted': kind<pb.RepositoryDeleted>({
    event: 'repository', repository: (p) => p.repository!, build: (p, root) => repositoryPayload('deleted', p, root),
  }),
  // Gitea fires `fork` on the repository that was forked.
  'repository.repo.forked': kind<pb.RepositoryForked>({
    event: 'fork', repository: (p) => p.parent!, build: forkPayload,
  }),
  'repository.status': kind<pb.CommitStatusCreated>({
    event: 'status', repository: (p) => p.repository!, build: statusPayload,
  }),
};

// Collaboration: an issue event on a pull request fires the pull_request_* event of the same
// kind, with the pull's payload (Gitea's notifier does the same).
const ISSUE_ACTIONS: Record<string, [issue: HookEvent, pull: HookEvent]> = {
  opened: ['issues', 'pull_request'],
  edited: ['issues', 'pull_request'],
  closed: ['issues', 'pull_request'],
  reopened: ['issues', 'pull_request'],
  deleted: ['issues', 'pull_request'],
  assigned: ['issue_assign', 'pull_request_assign'],
  unassigned: ['issue_assign', 'pull_request_assign'],
  label_updated: ['issue_label', 'pull_request_label'],
  label_cleared: ['issue_label', 'pull_request_label'],
  milestoned: ['issue_milestone', 'pull_request_milestone'],
  demilestoned: ['issue_milestone', 'pull_request_milestone'],
};

const issueKind = ([onIssue, onPull]: [HookEvent, HookEvent]) => kind<cpb.IssueEvent>({
  event: (p) => (!p.issue?.is_pull ? onIssue : p.pull_request ? onPull : undefined),
  repository: (p) => p.repository!,
  build: (p, root) => (p.issue?.is_pull ? pullPayloadOfIssueEvent(p, root) : issuePayload(p, root)),
});

const commentKind = kind<cpb.CommentEvent>({
  event: (p) => (p.issue?.is_pull ? 'pull_request_comment' : 'issue_comment'), repository: (p) => p.repository!, build: commentPayload,
});

// Pull events. review_dismissed fires no webhook, as in Gitea.
const PULL_ACTIONS: Record<string, HookEvent> = {
  opened: 'pull_request',
  edited: 'pull_request',
  closed: 'pull_request',
  reopened: 'pull_request',
  synchronized: 'pull_request_sync',
  review_approved: 'pull_request_review_approved',
  review_rejected: 'pull_request_review_rejected',
  review_comment: 'pull_request_review_comment',
  review_requested: 'pull_request_review_request',
  review_request_removed: 'pull_request_review_request',
};

const pullKind = (event: HookEvent) => kind<cpb.PullRequestEvent>({ event, repository: (p) => p.repository!, build: pullPayloadOfPullEvent });

Object.assign(
  HOOK_EVENT_KINDS,
  Object.fromEntries(Object.entries(ISSUE_ACTIONS).map(([action, events]) => [`collaboration.issue.${action}`, issueKind(events)])),
  Object.fromEntries(['created', 'edited', 'deleted'].map((action) => [`collaboration.issue_comment.${action}`, commentKind])),
  Object.fromEntries(Object.entries(PULL_ACTIONS).map(([action, event]) => [`collaboration.pull_request.${action}`, pullKind(event)])),
);

/** The webhook event a published event fires, if any. */
export function hookEventOf(kind: HookEventKind, payload: unknown): HookEvent | undefined {
  return typeof kind.event === 'function' ? kind.event(payload) : kind.event;
}

/** Every subject the table knows, for documentation and tests. */
export const HOOK_EVENT_SUBJECTS = Object.keys(HOOK_EVENT_KINDS);
