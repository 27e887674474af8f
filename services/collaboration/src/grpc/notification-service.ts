// anvil.collaboration.v1.NotificationService: decode the request, call the notification
// domain for the signed caller (and repository, for a repository's list), encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type collaboration } from '@anvil/proto';
import { countUnread, getThread, listNotifications, markNotifications, markThread, type CountsByRepository, type NotificationDeps, type NotificationThread } from '../domain/notifications.js';
import { pageOf } from './issue-service.js';
import { dateOf, timestamp } from './messages.js';

export const NOTIFICATION_SERVICE_NAME = 'anvil.collaboration.v1.NotificationService';

const sum = (counts: CountsByRepository) => counts.reduce((total, c) => total + c.count, 0);
const countMessage = (c: CountsByRepository[number]) => ({ repository_id: c.repositoryId, count: c.count });

export function threadMessage(thread: NotificationThread): collaboration.NotificationThreadInput {
  return {
    id: thread.id, repository_id: thread.repositoryId, status: thread.status, updated_at: timestamp(thread.updatedAt),
    subject: {
      type: thread.source === 'pull' ? 'Pull' : 'Issue', index: thread.subject.index, title: thread.subject.title,
      state: thread.subject.state, latest_comment_id: thread.subject.latestCommentId,
    },
  };
}

export function notificationService(deps: NotificationDeps): ServiceImplementation<collaboration.NotificationServiceHandlers> {
  return {
    async ListNotifications(request, { caller, repository }) {
      const filter = request.filter;
      const { items, byRepository } = await listNotifications(deps, caller, repository, {
        all: filter?.all ?? false,
        statuses: filter?.statuses ?? [], subjectTypes: filter?.subject_types ?? [],
        since: dateOf(filter?.since), before: dateOf(filter?.before),
      }, pageOf(request.page));
      return { threads: items.map(threadMessage), total: sum(byRepository), by_repository: byRepository.map(countMessage) };
    },
    async CountUnread(_request, { caller }) {
      const byRepository = await countUnread(deps, caller);
      return { count: sum(byRepository), by_repository: byRepository.map(countMessage) };
    },
    async GetThread(request, { caller }) {
      return threadMessage(await getThread(deps, caller, Number(request.id)));
    },
    async MarkThread(request, { caller }) {
      return threadMessage(await markThread(deps, caller, Number(request.id), request.to_status));
    },
    async MarkNotifications(request, { caller, repository }) {
      const threads = await markNotifications(deps, caller, repository, {
        lastReadAt: dateOf(request.last_read_at), all: request.all, statuses: request.statuses, toStatus: request.to_status,
      });
      return { threads: threads.map(threadMessage), total: threads.length };
    },
  };
}

export function notificationGrpcService(deps: NotificationDeps) {
  return {
    name: NOTIFICATION_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.collaboration.v1.NotificationService.service,
    implementation: notificationService(deps),
  };
}
