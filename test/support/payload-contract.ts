// Webhook payloads against the contract. Gitea's document defines no payload (they are no
// operation's response), but every part of one is a definition it has: a payload's
// `repository` is a `Repository`, its `sender` a `User`, its commits `PayloadCommit`s, its
// issue an `Issue`. checkPayload checks each part by its definition (strictly: no property
// the document does not list) and the payload's own fields against Gitea's struct for its
// event (modules/structs/hook.go), so a payload drifting from Gitea's fails a test.
import { validateDefinition } from '../../gateway/src/contract/index.js';

/** Gitea's payload struct per webhook event: its fields, and the definition of each part. */
interface PayloadShape {
  fields: string[];
  parts: Record<string, string>;
}

const USER_PARTS = { sender: 'User' };
const shape = (fields: string[], parts: Record<string, string>): PayloadShape => ({ fields, parts: { ...USER_PARTS, repository: 'Repository', ...parts } });

const ISSUE = shape(['action', 'number', 'changes', 'issue', 'repository', 'sender', 'commit_id'], { issue: 'Issue' });
const PULL = shape(
  ['action', 'number', 'changes', 'pull_request', 'requested_reviewer', 'repository', 'sender', 'commit_id', 'review'],
  { pull_request: 'PullRequest', requested_reviewer: 'User' },
);
const COMMENT = shape(['action', 'issue', 'pull_request', 'comment', 'changes', 'repository', 'sender', 'is_pull'], { issue: 'Issue', pull_request: 'PullRequest', comment: 'Comment' });

export const PAYLOAD_SHAPES: Record<string, PayloadShape> = {
  push: shape(['ref', 'before', 'after', 'compare_url', 'commits', 'total_commits', 'head_commit', 'repository', 'pusher', 'sender'],
    { 'commits[]': 'PayloadCommit', head_commit: 'PayloadCommit', pusher: 'User' }),
  create: shape(['sha', 'ref', 'ref_type', 'repository', 'sender'], {}),
  delete: shape(['ref', 'ref_type', 'pusher_type', 'repository', 'sender'], {}),
  fork: shape(['forkee', 'repository', 'sender'], { forkee: 'Repository' }),
  repository: shape(['action', 'repository', 'organization', 'sender'], { organization: 'User' }),
  status: shape(['id', 'sha', 'state', 'target_url', 'description', 'context', 'commit', 'repository', 'sender', 'created_at', 'updated_at'],
    { commit: 'PayloadCommit' }),
  issues: ISSUE, issue_assign: ISSUE, issue_label: ISSUE, issue_milestone: ISSUE,
  issue_comment: COMMENT, pull_request_comment: COMMENT,
  pull_request: PULL, pull_request_assign: PULL, pull_request_label: PULL, pull_request_milestone: PULL, pull_request_sync: PULL,
  pull_request_review_approved: PULL, pull_request_review_rejected: PULL, pull_request_review_comment: PULL, pull_request_review_request: PULL,
};

/**
 * What is wrong with a gitea/gogs payload for `event` (the X-Gitea-Event-Type header, e.g.
 * `pull_request_label`); empty when it fits. A payload's repository's parent is a
 * `Repository` of the same definition, checked with it.
 */
export function checkPayload(event: string, payload: Record<string, unknown>): string[] {
  const known = PAYLOAD_SHAPES[event];
  if (!known) return [`no payload shape is known for the ${event} event`];
  const problems = Object.keys(payload).filter((field) => !known.fields.includes(field)).map((field) => `${event}: ${field} is no field of Gitea's payload`);
  for (const [part, definition] of Object.entries(known.parts)) {
    const list = part.endsWith('[]');
    const value = payload[list ? part.slice(0, -2) : part];
    if (value === undefined || value === null) continue;
    const values = list ? (value as unknown[]) : [value];
    values.forEach((item, i) => problems.push(...validateDefinition(definition, item).map((p) => `${event} ${list ? `${part.slice(0, -2)}[${i}]` : part}: ${p}`)));
  }
  return problems;
}
