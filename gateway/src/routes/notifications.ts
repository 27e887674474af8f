// Notifications (routers/api/v1/notify): the caller's threads, all or one repository's,
// marking them read/unread/pinned, and the unread count (always JSON {"new": N}, whatever
// N is). Collaboration answers the threads and how many each repository holds; one
// repository call then keeps the repositories the caller may still see (a user who lost
// access to a private repository no longer sees its threads, nor counts them) and gives the
// repository JSON each thread carries.
import type { collaboration, repository } from '@anvil/proto';
import { ApiError } from '../http/errors.js';
import type { Reply, Route, RouteContext } from '../http/route.js';
import { ok } from '../http/route.js';
import { presentNotificationThread, type ShownRepositories } from '@anvil/presenters/notification.js';
import { inRepository } from './issue-scope.js';
import { timestampOf } from './repo-issues.js';
import { visibleRepositories } from './visible-repositories.js';

/** A query parameter given several times (`?status-types=unread&status-types=pinned`) or comma-separated. */
function listParam(ctx: RouteContext, name: string): string[] {
  const raw = ctx.query[name];
  const values = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return values.flatMap((v) => String(v).split(',')).map((v) => v.trim()).filter(Boolean);
}

const flag = (ctx: RouteContext, name: string) => ['true', '1'].includes(String(ctx.query[name] ?? '').toLowerCase());
const text = (ctx: RouteContext, name: string) => (typeof ctx.query[name] === 'string' ? (ctx.query[name] as string).trim() : '');

function filterOf(ctx: RouteContext): collaboration.NotificationFilter {
  return {
    all: flag(ctx, 'all'), statuses: listParam(ctx, 'status-types'), subject_types: listParam(ctx, 'subject-type'),
    since: timestampOf(ctx.query.since, 'since') ?? null, before: timestampOf(ctx.query.before, 'before') ?? null,
  };
}

function present(ctx: RouteContext, threads: collaboration.NotificationThread[], visible: Map<number, repository.RepositoryAccess>) {
  const shown: ShownRepositories = new Map();
  return threads.flatMap((t) => {
    const access = visible.get(Number(t.repository_id));
    return access?.owner ? [presentNotificationThread(t, access, ctx.caller, ctx.deps.config.rootUrl, shown)] : [];
  });
}

/** A list, keeping what the caller may see; `known` is the route's own repository when it has one. */
async function listReply(ctx: RouteContext, list: collaboration.NotificationList, known?: repository.RepositoryAccess): Promise<Reply> {
  const visible = known ? new Map([[Number(known.repository!.id), known]])
    : await visibleRepositories(ctx, list.by_repository.map((c) => Number(c.repository_id)));
  const total = list.by_repository.reduce((sum, c) => sum + (visible.has(Number(c.repository_id)) ? Number(c.count) : 0), 0);
  return ok(present(ctx, list.threads, visible), total);
}

/** PUT: the changed threads, 205 (Gitea's answer), those of repositories the caller sees. */
async function markedReply(ctx: RouteContext, list: collaboration.NotificationList, known?: repository.RepositoryAccess): Promise<Reply> {
  const visible = known ? new Map([[Number(known.repository!.id), known]])
    : await visibleRepositories(ctx, list.threads.map((t) => Number(t.repository_id)));
  return { status: 205, body: present(ctx, list.threads, visible) };
}

function markRequest(ctx: RouteContext): collaboration.MarkNotificationsRequest {
  const lastRead = text(ctx, 'last_read_at');
  const ms = lastRead ? Date.parse(lastRead) : NaN;
  // Gitea answers 400 to a last_read_at that is not RFC 3339.
  if (lastRead && !Number.isFinite(ms)) throw new ApiError(400, `parsing time "${lastRead}" as RFC 3339 failed`);
  return {
    last_read_at: lastRead ? { seconds: Math.floor(ms / 1000), nanos: 0 } : null,
    all: flag(ctx, 'all'), statuses: listParam(ctx, 'status-types'), to_status: text(ctx, 'to-status'),
  };
}

/** One thread the caller owns, in a repository they may still see; else 404 (403 for another user's, from collaboration). */
async function ownThread(ctx: RouteContext, thread: collaboration.NotificationThread) {
  const visible = await visibleRepositories(ctx, [Number(thread.repository_id)]);
  const [presented] = present(ctx, [thread], visible);
  if (!presented) throw new ApiError(404, 'The target couldn\'t be found.');
  return presented;
}

/** The `{id}` of the path; anything but a positive number names no thread (404, as Gitea's 0). */
const threadId = (ctx: RouteContext) => (/^\d{1,15}$/.test(ctx.params.id ?? '') ? Number(ctx.params.id) : 0);

export const notificationRoutes: Route[] = [
  {
    method: 'GET', path: '/notifications', operationId: 'notifyGetList', access: 'signed', scopes: ['notification'],
    async handle(ctx) {
      const list = await ctx.deps.services.notifications.ListNotifications({ filter: filterOf(ctx), page: ctx.page() }, { caller: ctx.caller });
      return listReply(ctx, list);
    },
  },
  {
    method: 'PUT', path: '/notifications', operationId: 'notifyReadList', access: 'signed', scopes: ['notification'],
    async handle(ctx) {
      return markedReply(ctx, await ctx.deps.services.notifications.MarkNotifications(markRequest(ctx), { caller: ctx.caller }));
    },
  },
  {
    method: 'GET', path: '/notifications/new', operationId: 'notifyNewAvailable', access: 'signed', scopes: ['notification'],
    async handle(ctx) {
      const unread = await ctx.deps.services.notifications.CountUnread({}, { caller: ctx.caller });
      const counts = unread.by_repository.filter((c) => Number(c.count) > 0);
      const visible = await visibleRepositories(ctx, counts.map((c) => Number(c.repository_id)));
      return ok({ new: counts.reduce((sum, c) => sum + (visible.has(Number(c.repository_id)) ? Number(c.count) : 0), 0) });
    },
  },
  {
    method: 'GET', path: '/notifications/threads/:id', operationId: 'notifyGetThread', access: 'signed', scopes: ['notification'],
    async handle(ctx) {
      const thread = await ctx.deps.services.notifications.GetThread({ id: threadId(ctx) }, { caller: ctx.caller });
      return ok(await ownThread(ctx, thread));
    },
  },
  {
    method: 'PATCH', path: '/notifications/threads/:id', operationId: 'notifyReadThread', access: 'signed', scopes: ['notification'],
    async handle(ctx) {
      const id = threadId(ctx);
      // Refused before anything changes when the thread's repository is out of sight.
      await ownThread(ctx, await ctx.deps.services.notifications.GetThread({ id }, { caller: ctx.caller }));
      const thread = await ctx.deps.services.notifications.MarkThread({ id, to_status: text(ctx, 'to-status') }, { caller: ctx.caller });
      return { status: 205, body: await ownThread(ctx, thread) };
    },
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/notifications', operationId: 'notifyGetRepoList', access: 'signed', scopes: ['notification'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const list = await ctx.deps.services.notifications.ListNotifications({ filter: filterOf(ctx), page: ctx.page() }, call.options);
      return listReply(ctx, list, call.access);
    }),
  },
  {
    method: 'PUT', path: '/repos/:owner/:repo/notifications', operationId: 'notifyReadRepoList', access: 'signed', scopes: ['notification'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      return markedReply(ctx, await ctx.deps.services.notifications.MarkNotifications(markRequest(ctx), call.options), call.access);
    }),
  },
];
