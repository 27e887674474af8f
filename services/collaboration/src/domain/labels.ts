// Labels (Gitea's routers/api/v1/repo/label.go and models/issues/label.go): a repository's
// own labels, and the labels on an issue. Reading needs read; writing needs write and a
// repository that is not archived. Colours are normalised as Gitea's NormalizeColor does.
import { invalid, notFound, type Caller, type RepositoryScope } from '@anvil/kit';
import type { Label } from './issue-store.js';
import type { CatalogChangeContext } from '../events/label-events.js';
import { labelEvents } from './issue-changes.js';
import { changeContext, type IssueDeps } from './issues.js';
import { requireNotArchived, scopedRepository, type ScopedRepository } from './scope.js';
import { profileOfCaller } from './users.js';

export interface NewLabel {
  name: string;
  color: string;
  description: string;
  exclusive: boolean;
  isArchived: boolean;
}

/** Whose labels: a repository's or an organization's. */
export type LabelOwner = { repositoryId: number } | { orgId: number };

export interface LabelStore {
  list(owner: LabelOwner, page: { offset: number; limit: number }): Promise<{ items: Label[]; total: number }>;
  /** The owner's own label. */
  find(owner: LabelOwner, id: number): Promise<Label | undefined>;
  /** Each change writes its event (created, edited, deleted) in the same transaction. */
  create(owner: LabelOwner, label: NewLabel, context: CatalogChangeContext): Promise<Label>;
  update(owner: LabelOwner, id: number, change: Partial<NewLabel>, context: CatalogChangeContext): Promise<Label | undefined>;
  remove(owner: LabelOwner, id: number, context: CatalogChangeContext): Promise<boolean>;
  /** Labels usable in the repository (its own, and its organization's) named by id or name. */
  usable(repository: ScopedRepository, tokens: string[]): Promise<Label[]>;
}

export interface LabelDeps extends IssueDeps {
  labels: LabelStore;
}

const COLOR = /^#?(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3})$/;

/** "#rrggbb" from "#rrggbb", "rrggbb", "#rgb" or "rgb" (Gitea's NormalizeColor); else 422. */
export function normalizeColor(color: string): string {
  const value = color.trim();
  if (!COLOR.test(value)) throw invalid(`Invalid color: ${color}`, 'invalid_color');
  const hex = value.replace(/^#/, '').toLowerCase();
  return `#${hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex}`;
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw invalid('[Name]: Required', 'invalid_label_name');
  if ([...trimmed].length > 50) throw invalid('[Name]: MaxSize(50)', 'invalid_label_name');
  return trimmed;
}

/** The scope an exclusive label belongs to ("priority" of "priority/high"); "" when none. */
export function exclusiveScope(label: Pick<Label, 'name' | 'exclusive'>): string {
  if (!label.exclusive) return '';
  const slash = label.name.lastIndexOf('/');
  return slash <= 0 || slash === label.name.length - 1 ? '' : label.name.slice(0, slash);
}

/**
 * At most one exclusive label per scope stays on an issue: a label added later replaces an
 * earlier one of its scope (Gitea's newIssueLabel with exclusive scopes).
 */
export function keepExclusive(labels: Label[]): Label[] {
  const kept: Label[] = [];
  for (const label of labels) {
    const scope = exclusiveScope(label);
    const without = scope ? kept.filter((l) => exclusiveScope(l) !== scope) : kept;
    kept.splice(0, kept.length, ...without.filter((l) => l.id !== label.id), label);
  }
  return kept;
}

export const labelNotFound = () => notFound('The target couldn\'t be found.', 'label_not_found');

export async function listLabels(deps: LabelDeps, scope: RepositoryScope | undefined, page: { offset: number; limit: number }) {
  return deps.labels.list({ repositoryId: scopedRepository(scope).id }, page);
}

export async function getLabel(deps: LabelDeps, scope: RepositoryScope | undefined, id: number): Promise<Label> {
  const label = await deps.labels.find({ repositoryId: scopedRepository(scope).id }, id);
  if (!label) throw labelNotFound();
  return label;
}

/** The repository of a label write; the route table asked for write (Gitea's reqRepoWriter). */
function writable(scope: RepositoryScope | undefined): ScopedRepository {
  const repository = scopedRepository(scope);
  requireNotArchived(repository);
  return repository;
}

/** A new label's fields, checked and normalised. */
export function checkedLabel(input: NewLabel): NewLabel {
  return { name: checkName(input.name), color: normalizeColor(input.color), description: input.description.trim(), exclusive: input.exclusive, isArchived: input.isArchived };
}

/** A label change's fields, checked and normalised; absent ones stay absent. */
export function checkedLabelChange(input: Partial<NewLabel>): Partial<NewLabel> {
  const change: Partial<NewLabel> = {};
  if (input.name !== undefined) change.name = checkName(input.name);
  if (input.color !== undefined) change.color = normalizeColor(input.color);
  if (input.description !== undefined) change.description = input.description.trim();
  if (input.exclusive !== undefined) change.exclusive = input.exclusive;
  if (input.isArchived !== undefined) change.isArchived = input.isArchived;
  return change;
}

/** Who changes a repository's label, for its event. */
const inRepository = (repository: ScopedRepository, caller: Caller): CatalogChangeContext => ({ sender: profileOfCaller(caller), repository: repository.scope });

export async function createLabel(deps: LabelDeps, scope: RepositoryScope | undefined, caller: Caller, input: NewLabel): Promise<Label> {
  const repository = writable(scope);
  return deps.labels.create({ repositoryId: repository.id }, checkedLabel(input), inRepository(repository, caller));
}

export async function editLabel(deps: LabelDeps, scope: RepositoryScope | undefined, caller: Caller, id: number, input: Partial<NewLabel>): Promise<Label> {
  const repository = writable(scope);
  const label = await deps.labels.update({ repositoryId: repository.id }, id, checkedLabelChange(input), inRepository(repository, caller));
  if (!label) throw labelNotFound();
  return label;
}

export async function deleteLabel(deps: LabelDeps, scope: RepositoryScope | undefined, caller: Caller, id: number): Promise<void> {
  const repository = writable(scope);
  if (!(await deps.labels.remove({ repositoryId: repository.id }, id, inRepository(repository, caller)))) throw labelNotFound();
}

const issueNotFound = () => notFound('The target couldn\'t be found.', 'issue_not_found');

export async function listIssueLabels(deps: LabelDeps, scope: RepositoryScope | undefined, index: number): Promise<Label[]> {
  const issue = await deps.issues.find(scopedRepository(scope).id, index);
  if (!issue) throw issueNotFound();
  return issue.labels;
}

/** Every token must name a usable label; an unknown one is refused and nothing changes. */
async function resolve(deps: LabelDeps, repository: ScopedRepository, tokens: string[]): Promise<Label[]> {
  const wanted = [...new Set(tokens.map((t) => t.trim()).filter(Boolean))];
  const found = wanted.length ? await deps.labels.usable(repository, wanted) : [];
  for (const token of wanted) {
    if (!found.some((l) => String(l.id) === token || l.name.toLowerCase() === token.toLowerCase())) {
      throw invalid(`label does not exist [${/^\d+$/.test(token) ? 'id' : 'name'}: ${token}]`, 'label_not_found');
    }
  }
  return found;
}

/** Changes the issue's labels (writers: the route table's `repoAccess`) to what `next` makes of them; publishes label_updated or label_cleared. */
async function changeIssueLabels(deps: LabelDeps, scope: RepositoryScope | undefined, caller: Caller, index: number, tokens: string[], next: (current: Label[], named: Label[]) => Label[]): Promise<Label[]> {
  const repository = scopedRepository(scope);
  const issue = await deps.issues.find(repository.id, index);
  if (!issue) throw issueNotFound();
  requireNotArchived(repository);
  const named = await resolve(deps, repository, tokens);
  const labels = keepExclusive(next(issue.labels, named));
  const edited = await deps.issues.edit(changeContext(repository, caller), index, { labelIds: labels.map((l) => l.id) }, labelEvents);
  if (!edited) throw issueNotFound();
  return edited.labels;
}

export const addIssueLabels = (deps: LabelDeps, scope: RepositoryScope | undefined, caller: Caller, index: number, tokens: string[]) =>
  changeIssueLabels(deps, scope, caller, index, tokens, (current, named) => [...current, ...named]);

export const replaceIssueLabels = (deps: LabelDeps, scope: RepositoryScope | undefined, caller: Caller, index: number, tokens: string[]) =>
  changeIssueLabels(deps, scope, caller, index, tokens, (_current, named) => named);

export const clearIssueLabels = (deps: LabelDeps, scope: RepositoryScope | undefined, caller: Caller, index: number) =>
  changeIssueLabels(deps, scope, caller, index, [], () => []);

/** DELETE /issues/{index}/labels/{id}: a label that does not exist is 422, as Gitea answers. */
export async function removeIssueLabel(deps: LabelDeps, scope: RepositoryScope | undefined, caller: Caller, index: number, labelId: number): Promise<void> {
  const repository = scopedRepository(scope);
  const [label] = await deps.labels.usable(repository, [String(labelId)]);
  if (!label || label.id !== labelId) throw invalid(`label does not exist [id: ${labelId}]`, 'label_not_found');
  await changeIssueLabels(deps, scope, caller, index, [], (current) => current.filter((l) => l.id !== labelId));
}
