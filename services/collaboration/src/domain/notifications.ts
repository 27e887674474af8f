// Notification threads (Gitea's models/activities/notification.go and routers/api/v1/notify):
// one per user and issue or pull request. Reading and marking them are the caller's own
// business; only the notification consumer creates them (domain/notification-recipients.ts).
import { DomainError, forbidden, invalid, notFound, type Caller, type RepositoryScope } from '@anvil/kit';
import { scopedRepository } from './scope.js';

export const NOTIFICATION_STATUSES = ['unread', 'read', 'pinned'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];
/** Gitea's NotificationSource names for what Anvil notifies about. */
export type NotificationSource = 'issue' | 'pull';

export interface NotificationThread {
  id: number;
  userId: number;
  repositoryId: number;
  status: NotificationStatus;
  source: NotificationSource;
  updatedAt: Date;
  subject: { index: number; title: string; state: 'open' | 'closed' | 'merged'; latestCommentId: number };
}

export interface NotificationQuery {
  userId: number;
  /** Only this repository's threads (/repos/{o}/{r}/notifications). */
  repositoryId?: number;
  /** Empty: every status. */
  statuses: NotificationStatus[];
  /** Empty: every kind; kinds Anvil never notifies about ("commit") match nothing. */
  subjectTypes: string[];
  since?: Date;
  before?: Date;
}

/** How many threads of a query each repository holds. */
export type CountsByRepository = Array<{ repositoryId: number; count: number }>;

export interface NotificationStore {
  list(query: NotificationQuery, page: { offset: number; limit: number }): Promise<{ items: NotificationThread[]; byRepository: CountsByRepository }>;
  countUnread(userId: number): Promise<CountsByRepository>;
  find(id: number): Promise<NotificationThread | undefined>;
  setStatus(id: number, status: NotificationStatus): Promise<NotificationThread | undefined>;
  /** Sets `status` on every thread the query matches; answers them as changed. */
  setStatusWhere(query: NotificationQuery, status: NotificationStatus): Promise<NotificationThread[]>;
}

export interface NotificationDeps {
  notifications: NotificationStore;
}

const isStatus = (value: string): value is NotificationStatus => (NOTIFICATION_STATUSES as readonly string[]).includes(value);

/**
 * Gitea's statusStringsToNotificationStatuses: the named statuses (`fallback` when none is
 * named); unknown names are dropped, and if none is left every status matches.
 */
export function statusesOf(requested: string[], fallback: NotificationStatus[]): NotificationStatus[] {
  const names = requested.length ? requested : fallback;
  return names.map((s) => s.trim().toLowerCase()).filter(isStatus);
}

/** Gitea's statusStringToNotificationStatus with `read` for an empty or unknown target. */
export function targetStatusOf(value: string): NotificationStatus {
  const status = value.trim().toLowerCase();
  return isStatus(status) ? status : 'read';
}

function signedIn(caller: Caller): number {
  if (caller.userId <= 0) throw new DomainError('unauthenticated', 'token is required', 'sign_in_required');
  return caller.userId;
}

export interface ListRequest {
  /** `all=true`: every status whatever status-types says. */
  all: boolean;
  statuses: string[];
  subjectTypes: string[];
  since?: Date;
  before?: Date;
}

/** GET /notifications (repository undefined) and /repos/{o}/{r}/notifications. */
export async function listNotifications(deps: NotificationDeps, caller: Caller, scope: RepositoryScope | undefined, request: ListRequest, page: { offset: number; limit: number }) {
  const userId = signedIn(caller);
  const repositoryId = scope ? scopedRepository(scope).id : undefined;
  // Pinned threads are part of the default list; read ones are not (Gitea 1.27).
  const statuses = request.all ? [] : statusesOf(request.statuses, ['unread', 'pinned']);
  return deps.notifications.list({ userId, repositoryId, statuses, subjectTypes: request.subjectTypes.map((s) => s.toLowerCase()), since: request.since, before: request.before }, page);
}

export async function countUnread(deps: NotificationDeps, caller: Caller): Promise<CountsByRepository> {
  return deps.notifications.countUnread(signedIn(caller));
}

async function ownThread(deps: NotificationDeps, caller: Caller, id: number): Promise<NotificationThread> {
  signedIn(caller);
  const thread = id > 0 ? await deps.notifications.find(id) : undefined;
  if (!thread) throw notFound('The target couldn\'t be found.', 'notification_not_found');
  if (thread.userId !== caller.userId && !caller.isAdmin) {
    throw forbidden(`only user itself and admin are allowed to read/change this thread ${id}`, 'notification_denied');
  }
  return thread;
}

export const getThread = ownThread;

export async function markThread(deps: NotificationDeps, caller: Caller, id: number, toStatus: string): Promise<NotificationThread> {
  const thread = await ownThread(deps, caller, id);
  return (await deps.notifications.setStatus(thread.id, targetStatusOf(toStatus))) ?? thread;
}

export interface MarkRequest {
  lastReadAt?: Date;
  all: boolean;
  statuses: string[];
  toStatus: string;
}

/** PUT /notifications and /repos/{o}/{r}/notifications: threads up to last_read_at. */
export async function markNotifications(deps: NotificationDeps, caller: Caller, scope: RepositoryScope | undefined, request: MarkRequest): Promise<NotificationThread[]> {
  const userId = signedIn(caller);
  const repositoryId = scope ? scopedRepository(scope).id : undefined;
  if (request.lastReadAt && Number.isNaN(request.lastReadAt.getTime())) throw invalid('last_read_at is not a date', 'bad_last_read_at');
  const statuses = request.all ? [] : statusesOf(request.statuses, ['unread']);
  return deps.notifications.setStatusWhere({ userId, repositoryId, statuses, subjectTypes: [], before: request.lastReadAt ?? new Date() }, targetStatusOf(request.toStatus));
}
