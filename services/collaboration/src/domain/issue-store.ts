// What the issue rules need from storage; src/store/issues.ts implements it over Prisma.
import type { ScopedRepository } from './scope.js';
import type { UserProfile } from './users.js';

export interface Label {
  id: number;
  name: string;
  color: string;
  description: string;
  exclusive: boolean;
  isArchived: boolean;
  repositoryId: number;
  orgId: number;
}

export interface Milestone {
  id: number;
  title: string;
  description: string;
  isClosed: boolean;
  openIssues: number;
  closedIssues: number;
  createdAt: Date;
  updatedAt: Date;
  closedAt?: Date;
  dueDate?: Date;
}

/** An issue as read back, with what presenting it needs (one SQL statement for a page). */
export interface Issue {
  id: number;
  repositoryId: number;
  index: number;
  poster?: UserProfile;
  posterId: number;
  title: string;
  body: string;
  isClosed: boolean;
  isPull: boolean;
  isLocked: boolean;
  labels: Label[];
  milestone?: Milestone;
  assignees: UserProfile[];
  comments: number;
  createdAt: Date;
  updatedAt: Date;
  closedAt?: Date;
  dueDate?: Date;
  pinOrder: number;
  ref: string;
  contentVersion: number;
  /** A pull request's merge state (its issue JSON's pull_request); undefined for an issue. */
  pull?: { hasMerged: boolean; mergedAt?: Date };
}

export interface IssueQuery {
  state: 'open' | 'closed' | 'all';
  type: 'issues' | 'pulls' | 'all';
  labels: string[];
  milestones: string[];
  q: string;
  since?: Date;
  before?: Date;
  posterId?: number;
  assigneeId?: number;
  mentionedId?: number;
  offset: number;
  limit: number;
}

/** Gitea's webhook actions for issues. */
export type IssueAction = 'opened' | 'edited' | 'closed' | 'reopened' | 'deleted' | 'assigned' | 'unassigned'
  | 'label_updated' | 'label_cleared' | 'milestoned' | 'demilestoned';

/** One event to publish with a change: the store fills in the issue as it stands after it. */
export interface IssueEventFacts {
  action: IssueAction;
  changes?: { titleFrom?: string; bodyFrom?: string; refFrom?: string };
  addedLabels?: Label[];
  removedLabels?: Label[];
  assignee?: UserProfile;
}

/** Who acted and where, for every event of a change. */
export interface ChangeContext {
  repository: ScopedRepository;
  sender: UserProfile;
  /** Users the change refers to that the read model may not know yet (the caller, the owner). */
  knownUsers: UserProfile[];
}

export interface NewIssue {
  posterId: number;
  title: string;
  body: string;
  ref: string;
  labelIds: number[];
  milestoneId?: number;
  assigneeIds: number[];
  dueDate?: Date;
  isClosed: boolean;
  mentionedIds: number[];
}

/** A change to an existing issue; undefined fields stay as they are. */
export interface IssueChange {
  title?: string;
  body?: string;
  ref?: string;
  isClosed?: boolean;
  /** null removes the milestone. */
  milestoneId?: number | null;
  assigneeIds?: number[];
  /** null removes the due date. */
  dueDate?: Date | null;
  isLocked?: boolean;
  /** Why it was locked (Gitea's lock reasons), for the timeline. */
  lockReason?: string;
  /** The whole new set of labels. */
  labelIds?: number[];
  /** The body's mentions, when the body changed. */
  mentionedIds?: number[];
}

export interface IssueStore {
  /** Takes the repository's next index (shared with pull requests) and stores the issue and its `opened` event in one transaction. */
  create(context: ChangeContext, issue: NewIssue): Promise<Issue>;
  list(repository: ScopedRepository, query: IssueQuery): Promise<{ items: Issue[]; total: number }>;
  find(repositoryId: number, index: number): Promise<Issue | undefined>;
  /** Applies the change and writes the events `eventsOf` derives from before/after, in one transaction. */
  edit(context: ChangeContext, index: number, change: IssueChange, eventsOf: (before: Issue, after: Issue) => IssueEventFacts[]): Promise<Issue | undefined>;
  /** Removes the issue and writes its `deleted` event; false when there was none. */
  remove(context: ChangeContext, index: number): Promise<boolean>;
  /** Labels usable in the repository (its own and, for an organization's, the organization's) among `ids`. */
  usableLabels(repository: ScopedRepository, ids: number[]): Promise<Label[]>;
  findMilestone(repositoryId: number, id: number): Promise<Milestone | undefined>;
  /** Users of the read model by login, case-insensitively. */
  usersByLogin(logins: string[]): Promise<UserProfile[]>;
}
