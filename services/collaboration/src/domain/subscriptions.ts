// Issue subscriptions (Gitea's routers/api/v1/repo/issue_subscription.go). A user watches an
// issue when they chose to, or, without a choice, when they take part in it (poster,
// commenter, assignee, mentioned). Only oneself may be (un)subscribed, unless a site admin;
// the answer says whether anything changed (Gitea: 200 when it already was so, 201 else).
import { forbidden, notFound, type Caller, type RepositoryScope } from '@anvil/kit';
import type { IssueDeps } from './issues.js';
import { scopedRepository } from './scope.js';
import type { UserProfile } from './users.js';

export interface SubscriptionStore {
  /** Whether the user watches the issue, explicitly or as a participant. */
  isWatching(issueId: number, userId: number): Promise<boolean>;
  /** Records the user's explicit choice. */
  setWatching(issueId: number, userId: number, watching: boolean): Promise<void>;
  /** The users who watch the issue, by id, paged. */
  subscribers(issueId: number, page: { offset: number; limit: number }): Promise<{ items: UserProfile[]; total: number }>;
}

export interface SubscriptionDeps extends IssueDeps {
  subscriptions: SubscriptionStore;
}

async function issueOf(deps: SubscriptionDeps, scope: RepositoryScope | undefined, index: number) {
  const issue = await deps.issues.find(scopedRepository(scope).id, index);
  if (!issue) throw notFound('The target couldn\'t be found.', 'issue_not_found');
  return issue;
}

export async function listSubscribers(deps: SubscriptionDeps, scope: RepositoryScope | undefined, index: number, page: { offset: number; limit: number }) {
  return deps.subscriptions.subscribers((await issueOf(deps, scope, index)).id, page);
}

export async function checkSubscription(deps: SubscriptionDeps, scope: RepositoryScope | undefined, caller: Caller, index: number): Promise<boolean> {
  const issue = await issueOf(deps, scope, index);
  return caller.userId > 0 && deps.subscriptions.isWatching(issue.id, caller.userId);
}

/** @returns whether the user's state changed. */
export async function setSubscription(deps: SubscriptionDeps, scope: RepositoryScope | undefined, caller: Caller, index: number, login: string, watch: boolean): Promise<boolean> {
  const issue = await issueOf(deps, scope, index);
  const [user] = await deps.issues.usersByLogin([login]);
  if (!user) throw notFound(`user does not exist [name: ${login}]`, 'user_not_found');
  if (user.id !== caller.userId && !caller.isAdmin) throw forbidden('User can only subscribe itself.', 'subscription_denied');
  if ((await deps.subscriptions.isWatching(issue.id, user.id)) === watch) return false;
  await deps.subscriptions.setWatching(issue.id, user.id, watch);
  return true;
}
