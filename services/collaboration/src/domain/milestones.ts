// Milestones (Gitea's routers/api/v1/repo/milestone.go): listed by state and name, named by
// id or name, created open or closed (a closed one is closed at once, closed_at set), with
// open/closed issue counts the issue store keeps exact. Writing needs write permission and
// a repository that is not archived.
import { invalid, notFound, type Caller, type RepositoryScope } from '@anvil/kit';
import type { CatalogChangeContext } from '../events/label-events.js';
import type { Milestone } from './issue-store.js';
import { requireNotArchived, scopedRepository, type ScopedRepository } from './scope.js';
import { profileOfCaller } from './users.js';

/** Who changes a milestone, for its event. */
const changeOf = (repository: ScopedRepository, caller: Caller): CatalogChangeContext => ({ sender: profileOfCaller(caller), repository: repository.scope });

export interface MilestoneQuery {
  state: 'open' | 'closed' | 'all';
  name: string;
  offset: number;
  limit: number;
}

export interface MilestoneChange {
  title?: string;
  description?: string;
  isClosed?: boolean;
  /** null removes it. */
  dueDate?: Date | null;
}

export interface MilestoneStore {
  list(repositoryId: number, query: MilestoneQuery): Promise<{ items: Milestone[]; total: number }>;
  /** By id within the repository, else by name (case-insensitively), as Gitea's getMilestoneByIDOrName. */
  find(repositoryId: number, idOrName: string): Promise<Milestone | undefined>;
  /** Each change writes its events (created, edited, closed, opened, deleted) in the same transaction. */
  create(repositoryId: number, milestone: Required<Pick<MilestoneChange, 'title' | 'description' | 'isClosed'>> & { dueDate?: Date }, context: CatalogChangeContext): Promise<Milestone>;
  update(repositoryId: number, id: number, change: MilestoneChange, context: CatalogChangeContext): Promise<Milestone>;
  remove(repositoryId: number, id: number, context: CatalogChangeContext): Promise<void>;
}

export interface MilestoneDeps {
  milestones: MilestoneStore;
}

const milestoneNotFound = () => notFound('The target couldn\'t be found.', 'milestone_not_found');

function checkTitle(title: string): string {
  const trimmed = title.trim();
  if (!trimmed) throw invalid('[Title]: Required', 'invalid_title');
  if ([...trimmed].length > 255) throw invalid('[Title]: MaxSize(255)', 'invalid_title');
  return trimmed;
}

/** "open" or "closed"; anything else is refused (Gitea binds state as an enum). */
function closedOf(state: string | undefined): boolean | undefined {
  if (state === undefined || state === '') return undefined;
  if (state !== 'open' && state !== 'closed') throw invalid(`[State]: must be open or closed, not ${state}`, 'invalid_state');
  return state === 'closed';
}

/** The repository of a milestone write; the route table asked for write (Gitea's reqRepoWriter). */
function writable(scope: RepositoryScope | undefined): ScopedRepository {
  const repository = scopedRepository(scope);
  requireNotArchived(repository);
  return repository;
}

export async function listMilestones(deps: MilestoneDeps, scope: RepositoryScope | undefined, input: { state: string; name: string; offset: number; limit: number }) {
  const repository = scopedRepository(scope);
  const state = input.state === 'closed' || input.state === 'all' ? input.state : 'open';
  return deps.milestones.list(repository.id, { state, name: input.name.trim(), offset: input.offset, limit: input.limit });
}

export async function getMilestone(deps: MilestoneDeps, scope: RepositoryScope | undefined, idOrName: string): Promise<Milestone> {
  const milestone = await deps.milestones.find(scopedRepository(scope).id, idOrName.trim());
  if (!milestone) throw milestoneNotFound();
  return milestone;
}

export async function createMilestone(deps: MilestoneDeps, scope: RepositoryScope | undefined, caller: Caller, input: { title: string; description: string; state: string; dueDate?: Date }): Promise<Milestone> {
  const repository = writable(scope);
  return deps.milestones.create(repository.id, {
    title: checkTitle(input.title), description: input.description, isClosed: closedOf(input.state) ?? false, dueDate: input.dueDate,
  }, changeOf(repository, caller));
}

export async function editMilestone(deps: MilestoneDeps, scope: RepositoryScope | undefined, caller: Caller, idOrName: string, input: { title?: string; description?: string; state?: string; dueDate?: Date }): Promise<Milestone> {
  const repository = writable(scope);
  const milestone = await deps.milestones.find(repository.id, idOrName.trim());
  if (!milestone) throw milestoneNotFound();
  const change: MilestoneChange = {};
  // An empty title leaves it as it is (Gitea: `if len(form.Title) > 0`).
  if (input.title !== undefined && input.title.trim() !== '') change.title = checkTitle(input.title);
  if (input.description !== undefined) change.description = input.description;
  if (input.dueDate !== undefined) change.dueDate = input.dueDate;
  const closed = closedOf(input.state);
  if (closed !== undefined) change.isClosed = closed;
  return deps.milestones.update(repository.id, milestone.id, change, changeOf(repository, caller));
}

export async function deleteMilestone(deps: MilestoneDeps, scope: RepositoryScope | undefined, caller: Caller, idOrName: string): Promise<void> {
  const repository = writable(scope);
  const milestone = await deps.milestones.find(repository.id, idOrName.trim());
  if (!milestone) throw milestoneNotFound();
  await deps.milestones.remove(repository.id, milestone.id, changeOf(repository, caller));
}
