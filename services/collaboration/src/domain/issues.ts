// Issues (Gitea's routers/api/v1/repo/issue.go and services/issue): open, list, read, edit,
// delete, and the due date. Who may do what comes from the permission the gateway resolved
// (scope.ts): reading needs read; opening an issue needs a signed-in reader; its labels,
// milestone, assignees and due date are set only by writers (silently dropped for others,
// as Gitea does); editing needs the poster or a writer (issue-rules.ts); deleting needs an admin.
import { invalid, notFound, type Caller, type RepositoryScope } from '@anvil/kit';
import type { ChangeContext, Issue, IssueChange, IssueEventFacts, IssueQuery, IssueStore, NewIssue } from './issue-store.js';
import { labelEvents } from './issue-changes.js';
import { mentionedLogins } from './mentions.js';
import { requireIssueEditor } from './issue-rules.js';
import { atLeast, requireNotArchived, scopedRepository, type ScopedRepository } from './scope.js';
import { profileOfCaller, type UserProfile } from './users.js';

/** Gitea's CreateIssueOption binding: `Required;MaxSize(255)`. */
export const MAX_TITLE_LENGTH = 255;
/**
 * Longest body accepted, in characters. Gitea stores LONGTEXT; GitHub caps bodies at 65,536
 * characters, and a megabyte of text is refused rather than stored.
 */
export const MAX_BODY_LENGTH = 65_536;

export interface IssueDeps {
  issues: IssueStore;
}

const issueNotFound = () => notFound('The target couldn\'t be found.', 'issue_not_found');

/** Who acts where, for the events of a change. */
export function changeContext(repository: ScopedRepository, caller: Caller): ChangeContext {
  const sender = profileOfCaller(caller);
  const owner = repository.scope.owner as UserProfile | null | undefined;
  return { repository, sender, knownUsers: owner?.id ? [sender, { ...owner, id: Number(owner.id) }] : [sender] };
}

function checkTitle(title: string): string {
  const trimmed = title.trim();
  if (!trimmed) throw invalid('[Title]: Required', 'invalid_title');
  if ([...trimmed].length > MAX_TITLE_LENGTH) throw invalid(`[Title]: MaxSize(${MAX_TITLE_LENGTH})`, 'invalid_title');
  return trimmed;
}

function checkBody(body: string): string {
  if (body.length > MAX_BODY_LENGTH) throw invalid(`[Body]: MaxSize(${MAX_BODY_LENGTH})`, 'invalid_body');
  return body;
}

async function labelIdsOf(deps: IssueDeps, repository: ScopedRepository, ids: number[]): Promise<number[]> {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return [];
  const found = await deps.issues.usableLabels(repository, wanted);
  const missing = wanted.filter((id) => !found.some((l) => l.id === id));
  if (missing.length) throw invalid(`label does not exist [id: ${missing[0]}]`, 'label_not_found');
  return wanted;
}

async function milestoneIdOf(deps: IssueDeps, repository: ScopedRepository, id: number): Promise<number | undefined> {
  if (!id) return undefined;
  if (!(await deps.issues.findMilestone(repository.id, id))) throw invalid(`milestone does not exist [id: ${id}, repo_id: ${repository.id}]`, 'milestone_not_found');
  return id;
}

/**
 * The ids of the named assignees: an unknown login is 422, and, when the gateway sent who
 * may be assigned (write access, from the repository service), anyone else is refused as
 * Gitea's CanBeAssigned refuses them (ErrUserDoesNotHaveAccessToRepo).
 */
export async function userIdsOf(deps: IssueDeps, logins: string[], repository?: ScopedRepository, assignable?: number[]): Promise<number[]> {
  const wanted = [...new Set(logins.map((l) => l.trim()).filter(Boolean))];
  if (!wanted.length) return [];
  const users = await deps.issues.usersByLogin(wanted);
  const missing = wanted.find((login) => !users.some((u) => u.login.toLowerCase() === login.toLowerCase()));
  if (missing) throw invalid(`Assignee does not exist: [name: ${missing}]`, 'assignee_not_found');
  const refused = assignable && repository ? users.find((u) => !assignable.includes(u.id)) : undefined;
  if (refused) throw invalid(`user doesn't have access to repo [user_id: ${refused.id}, repo_name: ${repository!.name}]`, 'assignee_no_access');
  return users.map((u) => u.id);
}

async function mentionedIdsOf(deps: IssueDeps, body: string): Promise<number[]> {
  const logins = mentionedLogins(body);
  return logins.length ? (await deps.issues.usersByLogin(logins)).map((u) => u.id) : [];
}

export interface CreateIssueInput {
  title: string;
  body: string;
  ref: string;
  assignees: string[];
  labels: number[];
  milestone: number;
  dueDate?: Date;
  closed: boolean;
  /** Who may be assigned, when the gateway asked the repository service (assignees named). */
  assignable?: number[];
}

export async function createIssue(deps: IssueDeps, scope: RepositoryScope | undefined, caller: Caller, input: CreateIssueInput): Promise<Issue> {
  const repository = scopedRepository(scope);
  requireNotArchived(repository);
  return deps.issues.create(changeContext(repository, caller), await createIssueFields(deps, repository, caller, input));
}

/** The checked fields of a new issue or pull request (pulls.ts shares them). */
export async function createIssueFields(deps: IssueDeps, repository: ScopedRepository, caller: Caller, input: CreateIssueInput): Promise<NewIssue> {
  const title = checkTitle(input.title);
  const body = checkBody(input.body);
  const writer = atLeast(repository.permission, 'write');
  const issue: NewIssue = {
    posterId: caller.userId, title, body, ref: input.ref, isClosed: input.closed,
    labelIds: writer ? await labelIdsOf(deps, repository, input.labels) : [],
    milestoneId: writer ? await milestoneIdOf(deps, repository, input.milestone) : undefined,
    assigneeIds: writer ? await userIdsOf(deps, input.assignees, repository, input.assignable) : [],
    dueDate: writer ? input.dueDate : undefined,
    mentionedIds: await mentionedIdsOf(deps, body),
  };
  return issue;
}

export async function getIssue(deps: IssueDeps, scope: RepositoryScope | undefined, index: number): Promise<Issue> {
  const repository = scopedRepository(scope);
  const issue = await deps.issues.find(repository.id, index);
  if (!issue) throw issueNotFound();
  return issue;
}

export interface ListIssuesInput {
  state: string;
  type: string;
  labels: string[];
  milestones: string[];
  q: string;
  since?: Date;
  before?: Date;
  createdBy: string;
  assignedBy: string;
  mentionedBy: string;
  offset: number;
  limit: number;
}

/** A user named by a filter; an unknown one is not found, as Gitea's getUserIDForFilter. */
async function filterUserId(deps: IssueDeps, login: string): Promise<number | undefined> {
  if (!login.trim()) return undefined;
  const [user] = await deps.issues.usersByLogin([login.trim()]);
  if (!user) throw notFound(`user does not exist [uid: 0, name: ${login.trim()}]`, 'user_not_found');
  return user.id;
}

export async function listIssues(deps: IssueDeps, scope: RepositoryScope | undefined, input: ListIssuesInput): Promise<{ items: Issue[]; total: number }> {
  const repository = scopedRepository(scope);
  const query: IssueQuery = {
    state: input.state === 'closed' || input.state === 'all' ? input.state : 'open',
    type: input.type === 'issues' || input.type === 'pulls' ? input.type : 'all',
    labels: input.labels.map((l) => l.trim()).filter(Boolean),
    milestones: input.milestones.map((m) => m.trim()).filter(Boolean),
    q: input.q.trim(), since: input.since, before: input.before,
    posterId: await filterUserId(deps, input.createdBy),
    assigneeId: await filterUserId(deps, input.assignedBy),
    mentionedId: await filterUserId(deps, input.mentionedBy),
    offset: input.offset, limit: input.limit,
  };
  return deps.issues.list(repository, query);
}

export interface EditIssueInput {
  title?: string;
  body?: string;
  ref?: string;
  state?: string;
  milestone?: number;
  assignees?: string[];
  dueDate?: Date | null;
  assignable?: number[];
}

/** Gitea's events for an API edit, in the order it notifies them. */
export function editEvents(before: Issue, after: Issue): IssueEventFacts[] {
  const events: IssueEventFacts[] = [];
  const changes: IssueEventFacts['changes'] = {};
  if (before.title !== after.title) changes.titleFrom = before.title;
  if (before.body !== after.body) changes.bodyFrom = before.body;
  if (before.ref !== after.ref) changes.refFrom = before.ref;
  if (Object.keys(changes).length) events.push({ action: 'edited', changes });
  for (const user of after.assignees) if (!before.assignees.some((a) => a.id === user.id)) events.push({ action: 'assigned', assignee: user });
  for (const user of before.assignees) if (!after.assignees.some((a) => a.id === user.id)) events.push({ action: 'unassigned', assignee: user });
  if (before.milestone?.id !== after.milestone?.id) events.push({ action: after.milestone ? 'milestoned' : 'demilestoned' });
  if (before.isClosed !== after.isClosed) events.push({ action: after.isClosed ? 'closed' : 'reopened' });
  events.push(...labelEvents(before, after));
  return events;
}

export async function editIssue(deps: IssueDeps, scope: RepositoryScope | undefined, caller: Caller, index: number, input: EditIssueInput): Promise<Issue> {
  const repository = scopedRepository(scope);
  const current = await deps.issues.find(repository.id, index);
  if (!current) throw issueNotFound();
  requireIssueEditor(repository, caller, current);
  // The poster edits the text and the state; only writers the milestone, assignees and due date (Gitea ignores them from others).
  const writer = atLeast(repository.permission, 'write');
  requireNotArchived(repository);
  const change: IssueChange = {};
  // An empty title leaves it as it is (Gitea: `if len(form.Title) > 0`).
  if (input.title !== undefined && input.title.trim() !== '') change.title = checkTitle(input.title);
  if (input.body !== undefined) {
    change.body = checkBody(input.body);
    change.mentionedIds = await mentionedIdsOf(deps, change.body);
  }
  if (input.ref !== undefined) change.ref = input.ref;
  // Gitea: any state but "closed" means open.
  if (input.state !== undefined) change.isClosed = input.state === 'closed';
  if (writer) {
    if (input.milestone !== undefined) change.milestoneId = input.milestone ? await milestoneIdOf(deps, repository, input.milestone) : null;
    if (input.assignees !== undefined) change.assigneeIds = await userIdsOf(deps, input.assignees, repository, input.assignable);
    if (input.dueDate !== undefined) change.dueDate = input.dueDate;
  }
  const edited = await deps.issues.edit(changeContext(repository, caller), index, change, editEvents);
  if (!edited) throw issueNotFound();
  return edited;
}

/** POST /issues/{index}/deadline: writers only (the route table's `repoAccess`); null removes it. */
export async function setIssueDeadline(deps: IssueDeps, scope: RepositoryScope | undefined, caller: Caller, index: number, dueDate: Date | null): Promise<Issue> {
  const repository = scopedRepository(scope);
  if (!(await deps.issues.find(repository.id, index))) throw issueNotFound();
  requireNotArchived(repository);
  const edited = await deps.issues.edit(changeContext(repository, caller), index, { dueDate }, () => []);
  if (!edited) throw issueNotFound();
  return edited;
}

/** DELETE /issues/{index}: repository admins (Gitea's reqAdmin: the route table's `repoAccess: 'admin'`). */
export async function deleteIssue(deps: IssueDeps, scope: RepositoryScope | undefined, caller: Caller, index: number): Promise<void> {
  const repository = scopedRepository(scope);
  requireNotArchived(repository);
  if (!(await deps.issues.remove(changeContext(repository, caller), index))) throw issueNotFound();
}

/** PUT/DELETE /issues/{index}/lock: repository admins (Gitea's reqAdmin: the route table's `repoAccess: 'admin'`); 204 whether or not it changed. */
export async function setIssueLock(deps: IssueDeps, scope: RepositoryScope | undefined, caller: Caller, index: number, locked: boolean, reason = ''): Promise<void> {
  const repository = scopedRepository(scope);
  const issue = await deps.issues.find(repository.id, index);
  if (!issue) throw issueNotFound();
  requireNotArchived(repository);
  if (issue.isLocked !== locked) await deps.issues.edit(changeContext(repository, caller), index, { isLocked: locked, lockReason: reason.trim() }, () => []);
}

/**
 * POST/DELETE /issues/{index}/assignees: writers (the route table's `repoAccess`) add or
 * remove some assignees; the rest stay.
 */
export async function changeIssueAssignees(
  deps: IssueDeps, scope: RepositoryScope | undefined, caller: Caller, index: number, logins: string[], add: boolean, assignable?: number[],
): Promise<Issue> {
  const repository = scopedRepository(scope);
  const current = await deps.issues.find(repository.id, index);
  if (!current) throw issueNotFound();
  requireNotArchived(repository);
  const named = await userIdsOf(deps, logins, repository, add ? assignable : undefined);
  const kept = current.assignees.map((a) => a.id).filter((id) => !named.includes(id));
  const edited = await deps.issues.edit(changeContext(repository, caller), index, { assigneeIds: add ? [...kept, ...named] : kept }, editEvents);
  if (!edited) throw issueNotFound();
  return edited;
}
