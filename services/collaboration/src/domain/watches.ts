// Repository watching (Gitea's routers/api/v1/repo/subscriber.go, user/watch.go): anyone who
// may read a repository may watch it, and then gets a notification thread for each of its
// issues and pull requests. Only oneself is (un)watched; the repository comes from the
// gateway's signed resolution.
import { DomainError, notFound, type Caller, type RepositoryScope } from '@anvil/kit';
import { scopedRepository } from './scope.js';
import { profileOfCaller, type UserProfile } from './users.js';

export interface RepositoryWatch {
  createdAt: Date;
}

export interface WatchStore {
  find(repositoryId: number, userId: number): Promise<RepositoryWatch | undefined>;
  /**
   * Starts or stops the user's watch; a change writes its repo_watch event in the same
   * transaction. Answers the watch as it stands after (undefined when not watching).
   */
  set(repositoryId: number, user: UserProfile, watching: boolean): Promise<RepositoryWatch | undefined>;
  watchers(repositoryId: number, page: { offset: number; limit: number }): Promise<{ items: UserProfile[]; total: number }>;
  /** Ids of the repositories the user watches, ascending. */
  watchedBy(userId: number): Promise<number[]>;
}

export interface WatchDeps {
  watches: WatchStore;
}

function signedIn(caller: Caller): void {
  if (caller.userId <= 0) throw new DomainError('unauthenticated', 'token is required', 'sign_in_required');
}

export async function getWatch(deps: WatchDeps, scope: RepositoryScope | undefined, caller: Caller): Promise<RepositoryWatch> {
  const repo = scopedRepository(scope);
  const watch = caller.userId > 0 ? await deps.watches.find(repo.id, caller.userId) : undefined;
  // Gitea answers 404 to "am I watching?" when the answer is no.
  if (!watch) throw notFound('The target couldn\'t be found.', 'watch_not_found');
  return watch;
}

export async function setWatch(deps: WatchDeps, scope: RepositoryScope | undefined, caller: Caller, watching: boolean): Promise<RepositoryWatch | undefined> {
  signedIn(caller);
  const repo = scopedRepository(scope);
  return deps.watches.set(repo.id, profileOfCaller(caller), watching);
}

export async function listWatchers(deps: WatchDeps, scope: RepositoryScope | undefined, page: { offset: number; limit: number }) {
  return deps.watches.watchers(scopedRepository(scope).id, page);
}

export async function watchedRepositories(deps: WatchDeps, userId: number): Promise<number[]> {
  return userId > 0 ? deps.watches.watchedBy(userId) : [];
}
