// GET /repos/issues/search (routers/api/v1/repo/issue.go SearchIssues): issues across every
// repository the caller may see. Two calls whatever the number of repositories: the
// repository service lists the visible ones (of one owner or team when asked), then
// collaboration searches all of them in one SQL statement. The page size defaults to
// [api] DEFAULT_PAGING_NUM like every other list (not Gitea's UI paging setting).
import { ok, type Route, type RouteContext } from '../http/route.js';
import { issuesOf, presentIssue, type IssueRepository, type ShownUsers } from '@anvil/presenters/issue.js';
import { timestampOf } from './repo-issues.js';

const text = (ctx: RouteContext, name: string) => (typeof ctx.query[name] === 'string' ? (ctx.query[name] as string) : '');
const list = (ctx: RouteContext, name: string) => text(ctx, name).split(',').map((s) => s.trim()).filter(Boolean);
/** Go's strconv.ParseBool as Gitea's FormBool reads it: anything else is false. */
const flag = (ctx: RouteContext, name: string) => ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(text(ctx, name));

// Gitea answers 400 for an unknown owner or team, and for a team without its organization.
const SEARCH_STATUSES = { search_owner_not_found: 400, search_team_not_found: 400, search_team_needs_owner: 400 };

export const issueSearchRoutes: Route[] = [
  {
    method: 'GET', path: '/repos/issues/search', operationId: 'issueSearchIssues', access: 'public', scopes: ['issue'], statusOverrides: SEARCH_STATUSES,
    async handle(ctx) {
      const { page, limit } = ctx.page();
      const since = timestampOf(ctx.query.since, 'since');
      const before = timestampOf(ctx.query.before, 'before');
      const visible = await ctx.deps.services.repository.ListVisibleRepositories({ owner: text(ctx, 'owner'), team: text(ctx, 'team') }, { caller: ctx.caller });
      const repos = new Map<number, IssueRepository>(visible.repositories.map((r) => [Number(r.id), { id: Number(r.id), owner: r.owner_login, name: r.name }]));
      if (!repos.size) return ok([], 0);
      const reply = await ctx.deps.services.issues.SearchIssues({
        repository_ids: [...repos.keys()], state: text(ctx, 'state'), type: text(ctx, 'type'), labels: list(ctx, 'labels'), milestones: list(ctx, 'milestones'),
        q: text(ctx, 'q'), since, before, assigned: flag(ctx, 'assigned'), created: flag(ctx, 'created'), mentioned: flag(ctx, 'mentioned'),
        review_requested: flag(ctx, 'review_requested'), reviewed: flag(ctx, 'reviewed'), created_by: text(ctx, 'created_by'), page: { page, limit },
      }, { caller: ctx.caller });
      const shown: ShownUsers = new Map();
      const body = issuesOf(reply).flatMap((issue) => {
        const repo = repos.get(Number(issue.repository_id));
        return repo ? [presentIssue(issue, repo, ctx.caller, ctx.deps.config.rootUrl, shown)] : [];
      });
      return ok(body, Number(reply.total));
    },
  },
];
