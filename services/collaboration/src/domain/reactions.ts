// Reactions on issues and comments (Gitea's routers/api/v1/repo/issue_reaction.go): only the
// kinds `[ui] REACTIONS` lists are allowed (anything else is 403, as Gitea's
// ErrForbiddenIssueReaction); reacting twice the same way answers the existing reaction;
// a locked issue takes reactions only from writers.
import { forbidden, notFound, type Caller, type RepositoryScope } from '@anvil/kit';
import type { CommentDeps } from './comments.js';
import { changeContext } from './issues.js';
import { requireMayTalkOn } from './issue-rules.js';
import { requireNotArchived, scopedRepository, type ScopedRepository } from './scope.js';
import type { UserProfile } from './users.js';

export interface Reaction {
  user?: UserProfile;
  userId: number;
  content: string;
  createdAt: Date;
}

/** Where a reaction sits: an issue, or a comment of it. */
export interface ReactionTarget {
  issueId: number;
  commentId: number;
}

export interface ReactionStore {
  list(target: ReactionTarget, page?: { offset: number; limit: number }): Promise<{ items: Reaction[]; total: number }>;
  /** Adds the reaction unless the user already reacted so; `created` says which. */
  add(known: UserProfile[], target: ReactionTarget, userId: number, content: string): Promise<{ reaction: Reaction; created: boolean }>;
  remove(target: ReactionTarget, userId: number, content: string): Promise<void>;
}

export interface ReactionDeps extends CommentDeps {
  reactions: ReactionStore;
  /** `[ui] REACTIONS`. */
  allowedReactions: readonly string[];
}

async function issueTarget(deps: ReactionDeps, repository: ScopedRepository, index: number) {
  const issue = await deps.issues.find(repository.id, index);
  if (!issue) throw notFound('The target couldn\'t be found.', 'issue_not_found');
  return { issue, target: { issueId: issue.id, commentId: 0 } };
}

async function commentTarget(deps: ReactionDeps, repository: ScopedRepository, commentId: number) {
  const comment = await deps.comments.find(repository.id, commentId);
  if (!comment) throw notFound('The target couldn\'t be found.', 'comment_not_found');
  const issue = await deps.issues.find(repository.id, comment.issueIndex);
  if (!issue) throw notFound('The target couldn\'t be found.', 'issue_not_found');
  return { issue, target: { issueId: issue.id, commentId } };
}

function mayReact(deps: ReactionDeps, repository: ScopedRepository, caller: Caller, issue: { isLocked: boolean }, content: string): void {
  requireNotArchived(repository);
  requireMayTalkOn(repository, caller, issue);
  if (!deps.allowedReactions.includes(content)) throw forbidden(`'${content}' is not an allowed reaction`, 'reaction_not_allowed');
}

export async function listIssueReactions(deps: ReactionDeps, scope: RepositoryScope | undefined, index: number, page: { offset: number; limit: number }) {
  const { target } = await issueTarget(deps, scopedRepository(scope), index);
  return deps.reactions.list(target, page);
}

export async function listCommentReactions(deps: ReactionDeps, scope: RepositoryScope | undefined, commentId: number) {
  const { target } = await commentTarget(deps, scopedRepository(scope), commentId);
  return (await deps.reactions.list(target)).items;
}

type Found = Awaited<ReturnType<typeof issueTarget>>;

function react(deps: ReactionDeps, repository: ScopedRepository, caller: Caller, found: Found, content: string) {
  mayReact(deps, repository, caller, found.issue, content);
  return deps.reactions.add(changeContext(repository, caller).knownUsers, found.target, caller.userId, content);
}

function unreact(deps: ReactionDeps, repository: ScopedRepository, caller: Caller, found: Found, content: string) {
  mayReact(deps, repository, caller, found.issue, content);
  return deps.reactions.remove(found.target, caller.userId, content);
}

export async function reactToIssue(deps: ReactionDeps, scope: RepositoryScope | undefined, caller: Caller, index: number, content: string) {
  const repository = scopedRepository(scope);
  return react(deps, repository, caller, await issueTarget(deps, repository, index), content);
}

export async function unreactToIssue(deps: ReactionDeps, scope: RepositoryScope | undefined, caller: Caller, index: number, content: string): Promise<void> {
  const repository = scopedRepository(scope);
  await unreact(deps, repository, caller, await issueTarget(deps, repository, index), content);
}

export async function reactToComment(deps: ReactionDeps, scope: RepositoryScope | undefined, caller: Caller, commentId: number, content: string) {
  const repository = scopedRepository(scope);
  return react(deps, repository, caller, await commentTarget(deps, repository, commentId), content);
}

export async function unreactToComment(deps: ReactionDeps, scope: RepositoryScope | undefined, caller: Caller, commentId: number, content: string): Promise<void> {
  const repository = scopedRepository(scope);
  await unreact(deps, repository, caller, await commentTarget(deps, repository, commentId), content);
}
