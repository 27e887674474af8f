// Pinned issues (Gitea's routers/api/v1/repo/issue_pin.go): writers pin up to MAX_PINNED
// issues per repository, in an order they can change; everyone who can read sees them.
import { DomainError, notFound, type RepositoryScope } from '@anvil/kit';
import type { Issue } from './issue-store.js';
import type { IssueDeps } from './issues.js';
import { requireNotArchived, scopedRepository } from './scope.js';

/** Gitea's `[repository.issue] MAX_PINNED` default. */
export const MAX_PINNED = 3;

export interface PinStore {
  /** Pins the issue last; 'full' when MAX_PINNED are pinned already; false when there is no such issue. */
  pin(repositoryId: number, index: number, max: number): Promise<'pinned' | 'full' | false>;
  /** Unpins it, closing the gap in the order; false when there is no such issue. */
  unpin(repositoryId: number, index: number): Promise<boolean>;
  /** Moves a pinned issue to `position` (1-based, clamped); false when there is no such issue. */
  move(repositoryId: number, index: number, position: number): Promise<boolean>;
  pinned(repositoryId: number): Promise<Issue[]>;
}

export interface PinDeps extends IssueDeps {
  pins: PinStore;
}

const issueNotFound = () => notFound('The target couldn\'t be found.', 'issue_not_found');

/** Pins are for repository admins (Gitea's reqAdmin: the route table's `repoAccess: 'admin'`). */
function writable(scope: RepositoryScope | undefined) {
  const repository = scopedRepository(scope);
  requireNotArchived(repository);
  return repository;
}

export async function pinIssue(deps: PinDeps, scope: RepositoryScope | undefined, index: number): Promise<void> {
  const result = await deps.pins.pin(writable(scope).id, index, MAX_PINNED);
  if (result === false) throw issueNotFound();
  if (result === 'full') throw new DomainError('bad_request', 'You can only pin 3 issues per repository', 'max_pinned');
}

export async function unpinIssue(deps: PinDeps, scope: RepositoryScope | undefined, index: number): Promise<void> {
  if (!(await deps.pins.unpin(writable(scope).id, index))) throw issueNotFound();
}

export async function moveIssuePin(deps: PinDeps, scope: RepositoryScope | undefined, index: number, position: number): Promise<void> {
  if (!(await deps.pins.move(writable(scope).id, index, position))) throw issueNotFound();
}

export const pinnedIssues = (deps: PinDeps, scope: RepositoryScope | undefined) => deps.pins.pinned(scopedRepository(scope).id);
