// Issue dependencies (Gitea's routers/api/v1/repo/issue_dependency.go), within a repository
// or across repositories (the gateway resolves the other repository for the caller, so one
// they cannot see is a 404 before this): an issue depending on an open one cannot be closed (412). Reading needs read,
// changing needs write; an issue cannot depend on itself or on one that depends on it.
// With the repository's dependencies off (internal_tracker), the routes are 404 and closing
// is not held back.
import { DomainError, invalid, notFound, type RepositoryScope } from '@anvil/kit';
import type { Issue } from './issue-store.js';
import type { IssueDeps } from './issues.js';
import { requireNotArchived, scopedRepository, type ScopedRepository } from './scope.js';

export interface DependencyStore {
  /** What the issue depends on (blocks: false) or blocks (true), by number, paged. */
  list(issueId: number, blocks: boolean, page: { offset: number; limit: number }): Promise<{ items: Issue[]; total: number }>;
  add(issueId: number, dependencyId: number): Promise<void>;
  remove(issueId: number, dependencyId: number): Promise<void>;
  exists(issueId: number, dependencyId: number): Promise<boolean>;
}

export interface DependencyDeps extends IssueDeps {
  dependencies: DependencyStore;
}

const issueNotFound = () => notFound('The target couldn\'t be found.', 'issue_not_found');

/** The repository's built-in tracker has dependencies on (internal_tracker; on when the scope says nothing). */
export const dependenciesEnabled = (repository: ScopedRepository) => repository.scope.repository?.internal_tracker?.enable_issue_dependencies ?? true;

/** Gitea answers 404 for the dependency routes of a repository that has dependencies off. */
function requireDependencies(repository: ScopedRepository): void {
  if (!dependenciesEnabled(repository)) throw notFound('The target couldn\'t be found.', 'dependencies_disabled');
}

export async function listIssueDependencies(deps: DependencyDeps, scope: RepositoryScope | undefined, index: number, blocks: boolean, page: { offset: number; limit: number }) {
  const repository = scopedRepository(scope);
  requireDependencies(repository);
  const issue = await deps.issues.find(repository.id, index);
  if (!issue) throw issueNotFound();
  return deps.dependencies.list(issue.id, blocks, page);
}

/** Adds or removes a dependency (writers: the route table's `repoAccess`); answers the other issue, as Gitea does. */
export async function setIssueDependency(
  deps: DependencyDeps, scope: RepositoryScope | undefined, index: number, otherIndex: number, blocks: boolean, add: boolean, otherRepositoryId = 0,
): Promise<Issue> {
  const repository = scopedRepository(scope);
  requireDependencies(repository);
  const [issue, other] = await Promise.all([deps.issues.find(repository.id, index), deps.issues.find(otherRepositoryId || repository.id, otherIndex)]);
  if (!issue || !other) throw issueNotFound();
  requireNotArchived(repository);
  const [dependent, dependency] = blocks ? [other, issue] : [issue, other];
  if (!add) {
    await deps.dependencies.remove(dependent.id, dependency.id);
    return other;
  }
  if (dependent.id === dependency.id) throw invalid('an issue cannot depend on itself', 'dependency_on_itself');
  if (await deps.dependencies.exists(dependency.id, dependent.id)) throw invalid('the issues would depend on each other', 'dependency_circular');
  await deps.dependencies.add(dependent.id, dependency.id);
  return other;
}

/** Gitea's ErrDependenciesLeft: 412 at the gateway. */
export const dependenciesLeft = () => new DomainError('bad_request', 'cannot close this issue because it still has open dependencies', 'dependencies_left');
