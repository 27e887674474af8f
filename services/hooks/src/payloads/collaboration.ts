// Gitea's payloads for collaboration's events (modules/structs/hook.go IssuePayload,
// IssueCommentPayload, PullRequestPayload), built only from what the events carry. The
// issue, comment, pull, repository and user JSON come from @anvil/presenters (the one layer
// that knows those shapes, serving both the API and webhooks as Gitea's services/convert
// does), seen as Gitea's webhooks see them: by no one in particular, so e-mails show as
// no-reply addresses.
import { ANONYMOUS } from '@anvil/kit';
import type { collaboration as pb, identity } from '@anvil/proto';
import { presentComment, presentIssue, type IssueRepository } from '@anvil/presenters/issue.js';
import { presentPull } from '@anvil/presenters/pull.js';
import { formatTime, payloadRepository, payloadUser, type PayloadPermission, type RepositoryFacts } from './gitea.js';

/** What every collaboration event says of its repository (collaboration_events.proto). */
type WithRepository = RepositoryFacts & { sender_permission?: string };

/**
 * The permission the payload's repository shows: the sender's, as the gateway resolved it
 * (Gitea's notifier takes the doer's, or for some issue events the poster's, which the event
 * does not know). An event without it (published before it was carried) shows none.
 */
const senderPermission = (event: WithRepository): PayloadPermission => event.sender_permission || 'none';

const issueRepository = (event: WithRepository): IssueRepository => ({
  id: Number(event.repository!.id), owner: event.repository!.owner_login, name: event.repository!.name,
});

const user = (who: identity.User | null | undefined, rootUrl: string) => payloadUser(who, rootUrl);

/** Gitea's ChangesPayload: only what changed, or nothing (`omitempty`). */
function changesOf(changes: pb.IssueChanges | null | undefined) {
  if (!changes) return undefined;
  const from = (value: string | null | undefined) => (value === undefined || value === null ? undefined : { from: value });
  const out = { title: from(changes.title_from), body: from(changes.body_from), ref: from(changes.ref_from) };
  return out.title || out.body || out.ref ? JSON.parse(JSON.stringify(out)) as Record<string, { from: string }> : undefined;
}

/** An issue as webhooks show it; a pull's issue carries Gitea's `pull_request` meta. */
function issueJson(issue: pb.Issue, pull: pb.PullRequest | null | undefined, event: WithRepository, rootUrl: string) {
  const json = presentIssue(issue, issueRepository(event), ANONYMOUS, rootUrl);
  if (!issue.is_pull) return json;
  return {
    ...json,
    pull_request: {
      merged: pull?.has_merged ?? false, merged_at: pull?.merged_at ? formatTime(pull.merged_at) : null, draft: false,
      html_url: json.html_url,
    },
  };
}

/** Gitea's ToAPIPullRequest(pr, nil) shows a repository as an anonymous reader would. */
const asAnonymous = (facts: RepositoryFacts, rootUrl: string) => payloadRepository(facts, facts.repository!.private ? 'none' : 'read', rootUrl);

/** What a pull event says of its repository, and of its head's when that is a fork that still exists. */
type WithHead = WithRepository & { head_repository?: pb.HeadRepository | null };

function pullJson(pull: pb.PullRequest, event: WithHead, rootUrl: string) {
  const repo = issueRepository(event);
  const head = event.head_repository?.repository ? event.head_repository : undefined;
  const headRepos = head ? new Map([[Number(head.repository!.id), asAnonymous(head, rootUrl)]]) : undefined;
  // The repositories' JSON is given, so the presenter needs no access record of its own.
  return presentPull(pull, { access: {} as never, repo, caller: ANONYMOUS, rootUrl, repoJson: asAnonymous(event, rootUrl) as never, headRepos: headRepos as never });
}

/** Gitea's IssuePayload (issues, issue_assign, issue_label, issue_milestone). */
export function issuePayload(event: pb.IssueEvent, rootUrl: string) {
  const changes = changesOf(event.changes);
  return {
    action: event.action, number: Number(event.issue!.index), ...(changes ? { changes } : {}),
    issue: issueJson(event.issue!, event.pull_request, event, rootUrl),
    repository: payloadRepository(event, senderPermission(event), rootUrl), sender: user(event.sender, rootUrl), commit_id: '',
  };
}

interface PullFacts {
  action: string;
  pull: pb.PullRequest;
  changes?: pb.IssueChanges | null;
  review?: pb.PullReviewPayload | null;
  requestedReviewer?: identity.User | null;
  /** Gitea shows the repository with the owner's permission for some pull actions. */
  permission?: PayloadPermission;
}

function pullPayload(facts: PullFacts, event: WithHead & { sender?: identity.User | null }, rootUrl: string) {
  const changes = changesOf(facts.changes);
  return {
    action: facts.action, number: Number(facts.pull.issue!.index), ...(changes ? { changes } : {}),
    pull_request: pullJson(facts.pull, event, rootUrl),
    requested_reviewer: facts.requestedReviewer ? user(facts.requestedReviewer, rootUrl) : null,
    repository: payloadRepository(event, facts.permission ?? senderPermission(event), rootUrl), sender: user(event.sender, rootUrl), commit_id: '',
    review: facts.review ? { type: facts.review.type, content: facts.review.content } : null,
  };
}

/** Gitea's PullRequestPayload for a change made through the issue (labels, assignees, milestone, title, state). */
export const pullPayloadOfIssueEvent = (event: pb.IssueEvent, rootUrl: string) => pullPayload({
  action: event.action, pull: event.pull_request!, changes: event.changes,
  // Gitea's IssueChangeLabels shows a pull's repository with the owner's permission.
  permission: event.action === 'label_updated' ? 'owner' : undefined,
}, event, rootUrl);

/**
 * Gitea's PullRequestPayload for collaboration's pull events. Review verdicts are sent with
 * action `reviewed` (Gitea's HookIssueReviewed) and the review; `synchronized`,
 * `review_requested` and `review_request_removed` keep their names.
 */
export function pullPayloadOfPullEvent(event: pb.PullRequestEvent, rootUrl: string) {
  const action = event.action.startsWith('review_') && !event.action.startsWith('review_request') ? 'reviewed' : event.action;
  return pullPayload({
    action, pull: event.pull_request!, review: event.review, requestedReviewer: event.requested_reviewer,
    // Gitea's PullRequestSynchronized shows the repository with the owner's permission.
    permission: event.action === 'synchronized' ? 'owner' : undefined,
  }, event, rootUrl);
}

/** Gitea's IssueCommentPayload (issue_comment, pull_request_comment). */
export function commentPayload(event: pb.CommentEvent, rootUrl: string) {
  const changes = changesOf(event.changes);
  return {
    action: event.action, issue: issueJson(event.issue!, event.pull_request, event, rootUrl),
    comment: presentComment(event.comment!, issueRepository(event), ANONYMOUS, rootUrl), ...(changes ? { changes } : {}),
    repository: payloadRepository(event, senderPermission(event), rootUrl), sender: user(event.sender, rootUrl), is_pull: event.issue!.is_pull,
  };
}
