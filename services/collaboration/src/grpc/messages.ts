// Domain values → collaboration messages, shared by the gRPC adapters and the events.
import { timestamp, type collaboration as pb, type identity } from '@anvil/proto';
import type { Comment } from '../domain/comments.js';
import type { Reaction } from '../domain/reactions.js';
import type { Issue, Label, Milestone } from '../domain/issue-store.js';
import type { UserProfile } from '../domain/users.js';


const optionalTimestamp = (date: Date | undefined) => (date ? timestamp(date) : undefined);

export { dateOf, timestamp } from '@anvil/proto';

/** The read model keeps identity's User message as it came: hand it back as is. */
export const userMessage = (user: UserProfile): identity.UserInput => user as unknown as identity.UserInput;

export function labelMessage(label: Label): pb.LabelInput {
  return {
    id: label.id, name: label.name, color: label.color, description: label.description, exclusive: label.exclusive,
    is_archived: label.isArchived, repository_id: label.repositoryId, org_id: label.orgId,
  };
}

export function milestoneMessage(m: Milestone): pb.MilestoneInput {
  return {
    id: m.id, title: m.title, description: m.description, state: m.isClosed ? 'closed' : 'open', open_issues: m.openIssues, closed_issues: m.closedIssues,
    created_at: timestamp(m.createdAt), updated_at: timestamp(m.updatedAt), closed_at: optionalTimestamp(m.closedAt), due_on: optionalTimestamp(m.dueDate),
  };
}

export function issueMessage(issue: Issue): pb.IssueInput {
  return {
    id: issue.id, index: issue.index, repository_id: issue.repositoryId, user: issue.poster ? userMessage(issue.poster) : undefined,
    title: issue.title, body: issue.body, state: issue.isClosed ? 'closed' : 'open', is_locked: issue.isLocked, is_pull: issue.isPull,
    labels: issue.labels.map(labelMessage), milestone: issue.milestone ? milestoneMessage(issue.milestone) : undefined,
    assignees: issue.assignees.map(userMessage), comments: issue.comments,
    created_at: timestamp(issue.createdAt), updated_at: timestamp(issue.updatedAt), closed_at: optionalTimestamp(issue.closedAt), due_date: optionalTimestamp(issue.dueDate),
    pin_order: issue.pinOrder, ref: issue.ref, content_version: issue.contentVersion,
    pull: issue.pull ? { merged: issue.pull.hasMerged, merged_at: optionalTimestamp(issue.pull.mergedAt) } : undefined,
  };
}

/** A page of issues as an IssueList: each user once in `users`, the issues naming them by id (collaboration.proto). */
export function issueListMessage(items: Issue[], total: number): pb.IssueListInput {
  const users = new Map<number, UserProfile>();
  const ref = (user: UserProfile) => {
    users.set(Number(user.id), user);
    return { id: user.id };
  };
  const issues = items.map((issue) => ({
    ...issueMessage(issue),
    user: issue.poster ? ref(issue.poster) : undefined,
    assignees: issue.assignees.map(ref),
  }));
  return { issues, total, users: [...users.values()].map(userMessage) };
}

export function commentMessage(comment: Comment): pb.CommentInput {
  return {
    id: comment.id, issue_id: comment.issueId, issue_index: comment.issueIndex, is_pull: comment.isPull,
    user: comment.poster ? userMessage(comment.poster) : undefined, type: comment.type, body: comment.body,
    created_at: timestamp(comment.createdAt), updated_at: timestamp(comment.updatedAt), data_json: comment.data ? JSON.stringify(comment.data) : '',
  };
}

export function reactionMessage(reaction: Reaction): pb.ReactionInput {
  return { user: reaction.user ? userMessage(reaction.user) : undefined, content: reaction.content, created_at: timestamp(reaction.createdAt) };
}
