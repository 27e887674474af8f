// The signed-in user's tracked times and running stopwatches in every repository
// (GET /user/times, GET /user/stopwatches). Collaboration names each entry's repository by
// id; the repositories of a page are resolved in one call, for the caller, and an entry in
// a repository the caller can no longer see is left out.
import { ok, type Route, type RouteContext } from '../http/route.js';
import type { IssueRepository } from '@anvil/presenters/issue.js';
import { presentStopwatch, presentTrackedTime } from '@anvil/presenters/tracked-time.js';
import { timestampOf } from './repo-issues.js';
import { visibleRepositories } from './visible-repositories.js';

/** The repositories of `ids` the caller may see, by id, as the presenters name them. */
async function repositoriesOf(ctx: RouteContext, ids: number[]): Promise<Map<number, IssueRepository>> {
  const visible = await visibleRepositories(ctx, ids);
  return new Map([...visible].flatMap(([id, access]) => {
    const r = access.repository;
    return r && access.permission !== 'none' ? [[id, { id, owner: r.owner_login, name: r.name }] as const] : [];
  }));
}

export const userTimeRoutes: Route[] = [
  {
    method: 'GET', path: '/user/times', operationId: 'userCurrentTrackedTimes', access: 'signed', scopes: ['user'],
    async handle(ctx) {
      const { page, limit } = ctx.page();
      const reply = await ctx.deps.services.trackedTimes.ListUserTrackedTimes({
        since: timestampOf(ctx.query.since, 'since'), before: timestampOf(ctx.query.before, 'before'), page: { page, limit },
      }, { caller: ctx.caller });
      const repos = await repositoriesOf(ctx, reply.times.map((t) => Number(t.issue?.repository_id ?? 0)));
      const visible = reply.times.filter((t) => repos.has(Number(t.issue?.repository_id ?? 0)));
      return ok(visible.map((t) => presentTrackedTime(t, repos.get(Number(t.issue?.repository_id)), ctx.caller, ctx.deps.config.rootUrl)), Number(reply.total));
    },
  },
  {
    method: 'GET', path: '/user/stopwatches', operationId: 'userGetStopWatches', access: 'signed', scopes: ['user'],
    async handle(ctx) {
      const { page, limit } = ctx.page();
      const reply = await ctx.deps.services.trackedTimes.ListStopwatches({ page, limit }, { caller: ctx.caller });
      const repos = await repositoriesOf(ctx, reply.stopwatches.map((s) => Number(s.repository_id)));
      const visible = reply.stopwatches.filter((s) => repos.has(Number(s.repository_id)));
      return ok(visible.map((s) => presentStopwatch(s, repos.get(Number(s.repository_id))!)), Number(reply.total));
    },
  },
];
