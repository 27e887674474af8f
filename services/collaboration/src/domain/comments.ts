// Comments on issues (Gitea's routers/api/v1/repo/issue_comment.go). Reading needs read;
// commenting needs a signed-in reader, and on a locked issue a writer (or a site admin);
// editing and deleting need the poster or a writer. Each change publishes Gitea's
// issue_comment event through the outbox.
import { invalid, notFound, type Caller, type RepositoryScope } from '@anvil/kit';
import type { ChangeContext } from './issue-store.js';
import { changeContext, MAX_BODY_LENGTH, type IssueDeps } from './issues.js';
import { mentionedLogins } from './mentions.js';
import { requireCommentEditor, requireMayTalkOn } from './issue-rules.js';
import { requireNotArchived, scopedRepository } from './scope.js';
import type { UserProfile } from './users.js';

export interface Comment {
  id: number;
  issueId: number;
  issueIndex: number;
  isPull: boolean;
  repositoryId: number;
  posterId: number;
  poster?: UserProfile;
  type: string;
  body: string;
  /** Timeline entries: what they record beyond their type. */
  data?: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

export interface CommentWindow {
  since?: Date;
  before?: Date;
}

export interface CommentStore {
  /** An issue's comments, oldest first. */
  listForIssue(issueId: number, window: CommentWindow): Promise<Comment[]>;
  /** An issue's comments and recorded changes, oldest first, paged. */
  timeline(issueId: number, window: CommentWindow & { offset: number; limit: number }): Promise<{ items: Comment[]; total: number }>;
  /** A repository's comments, oldest first, paged. */
  listForRepository(repositoryId: number, window: CommentWindow & { offset: number; limit: number }): Promise<{ items: Comment[]; total: number }>;
  find(repositoryId: number, id: number): Promise<Comment | undefined>;
  /** Stores the comment, counts it on its issue and writes its `created` event, in one transaction. */
  create(context: ChangeContext, issueId: number, body: string, mentionedIds: number[]): Promise<Comment>;
  edit(context: ChangeContext, id: number, body: string): Promise<Comment | undefined>;
  remove(context: ChangeContext, id: number): Promise<boolean>;
}

export interface CommentDeps extends IssueDeps {
  comments: CommentStore;
}

const notFoundError = (what: string) => notFound('The target couldn\'t be found.', `${what}_not_found`);

function checkBody(body: string): string {
  if (!body.trim()) throw invalid('[Body]: Required', 'invalid_body');
  if (body.length > MAX_BODY_LENGTH) throw invalid(`[Body]: MaxSize(${MAX_BODY_LENGTH})`, 'invalid_body');
  return body;
}

export async function listIssueComments(deps: CommentDeps, scope: RepositoryScope | undefined, index: number, window: CommentWindow): Promise<Comment[]> {
  const issue = await deps.issues.find(scopedRepository(scope).id, index);
  if (!issue) throw notFoundError('issue');
  return deps.comments.listForIssue(issue.id, window);
}

export function listRepositoryComments(deps: CommentDeps, scope: RepositoryScope | undefined, window: CommentWindow & { offset: number; limit: number }) {
  return deps.comments.listForRepository(scopedRepository(scope).id, window);
}

export async function getComment(deps: CommentDeps, scope: RepositoryScope | undefined, id: number): Promise<Comment> {
  const comment = await deps.comments.find(scopedRepository(scope).id, id);
  if (!comment) throw notFoundError('comment');
  return comment;
}

export async function createComment(deps: CommentDeps, scope: RepositoryScope | undefined, caller: Caller, index: number, body: string): Promise<Comment> {
  const repository = scopedRepository(scope);
  const issue = await deps.issues.find(repository.id, index);
  if (!issue) throw notFoundError('issue');
  requireNotArchived(repository);
  requireMayTalkOn(repository, caller, issue);
  const text = checkBody(body);
  const logins = mentionedLogins(text);
  const mentioned = logins.length ? (await deps.issues.usersByLogin(logins)).map((u) => u.id) : [];
  return deps.comments.create(changeContext(repository, caller), issue.id, text, mentioned);
}

/** The comment, when the caller may change it: its poster or a writer. */
async function changeable(deps: CommentDeps, scope: RepositoryScope | undefined, caller: Caller, id: number) {
  const repository = scopedRepository(scope);
  const comment = await deps.comments.find(repository.id, id);
  if (!comment) throw notFoundError('comment');
  requireCommentEditor(repository, caller, comment);
  requireNotArchived(repository);
  return { repository, comment };
}

/** Only what people wrote is edited; a timeline entry comes back unchanged (Gitea: 204). */
export async function editComment(deps: CommentDeps, scope: RepositoryScope | undefined, caller: Caller, id: number, body: string): Promise<Comment> {
  const { repository, comment } = await changeable(deps, scope, caller, id);
  if (comment.type !== 'comment') return comment;
  const edited = await deps.comments.edit(changeContext(repository, caller), id, checkBody(body));
  if (!edited) throw notFoundError('comment');
  return edited;
}

/** Only what people wrote is deleted; a timeline entry stays (Gitea answers 204 all the same). */
export async function deleteComment(deps: CommentDeps, scope: RepositoryScope | undefined, caller: Caller, id: number): Promise<void> {
  const { repository, comment } = await changeable(deps, scope, caller, id);
  if (comment.type !== 'comment') return;
  if (!(await deps.comments.remove(changeContext(repository, caller), id))) throw notFoundError('comment');
}

export async function listTimeline(deps: CommentDeps, scope: RepositoryScope | undefined, index: number, window: CommentWindow & { offset: number; limit: number }) {
  const issue = await deps.issues.find(scopedRepository(scope).id, index);
  if (!issue) throw notFoundError('issue');
  return deps.comments.timeline(issue.id, window);
}
