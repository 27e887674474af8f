// Reviews of pull requests (routers/api/v1/repo/pull_review.go). One collaboration call per
// request with the repository the gateway resolved; a review with comments on lines first
// asks the repository service for the diff around each line (CutDiffHunks), which the
// comment keeps.
import { DomainError, invalid, notFound } from '@anvil/kit';
import type { collaboration, identity } from '@anvil/proto';
import { created, noContent, ok, type Route, type RouteContext } from '../http/route.js';
import { presentReview, presentReviewComment } from '@anvil/presenters/review.js';
import { inRepository, type RepositoryCall } from './issue-scope.js';

const WRITE_STATUSES = { repo_archived: 423 };
const number = (value: string) => (/^\d{1,15}$/.test(value) ? Number(value) : 0);
const present = (ctx: RouteContext, call: RepositoryCall) => (r: Parameters<typeof presentReview>[0]) => presentReview(r, call.repo, ctx.caller, ctx.deps.config.rootUrl);
const ref = (ctx: RouteContext) => ({ pull_index: number(ctx.params.index), id: number(ctx.params.id) });

interface CreateReviewBody { event?: string; body?: string; commit_id?: string; comments?: unknown }

const isPosition = (v: unknown) => v === undefined || v === null || (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0);

/**
 * Each comment as path and signed line (Gitea: the old line, negated, when old_position is
 * set, else new_position). A position that is not a whole number ≥ 0, none or both set, or
 * no path is 422 before anything is asked.
 */
function commentLines(comments: unknown): Array<{ path: string; line: number; body: string }> {
  if (comments === undefined || comments === null) return [];
  if (!Array.isArray(comments)) throw invalid('[comments]: must be a list', 'invalid_review_comment');
  return comments.map((raw, i) => {
    const c = (raw ?? {}) as { path?: unknown; body?: unknown; new_position?: unknown; old_position?: unknown };
    if (typeof c.path !== 'string' || !c.path.trim()) throw invalid(`[comments][${i}].path: Required`, 'invalid_review_comment');
    if (!isPosition(c.new_position) || !isPosition(c.old_position)) throw invalid(`[comments][${i}]: positions must be whole numbers ≥ 0`, 'invalid_review_comment');
    const newLine = Number(c.new_position ?? 0);
    const oldLine = Number(c.old_position ?? 0);
    if ((newLine > 0) === (oldLine > 0)) throw invalid(`[comments][${i}]: exactly one of new_position and old_position must be set`, 'invalid_review_comment');
    if (c.body !== undefined && typeof c.body !== 'string') throw invalid(`[comments][${i}].body: must be a string`, 'invalid_review_comment');
    return { path: c.path, line: oldLine > 0 ? -oldLine : newLine, body: (c.body as string | undefined) ?? '' };
  });
}

/**
 * The teams of the repository's organization named in `team_reviewers` (case-insensitive),
 * found through identity with the caller's own rights; an unknown one is 404 as in Gitea.
 * A repository of a user has no teams: Gitea ignores the names there.
 */
async function teamsNamed(ctx: RouteContext, call: RepositoryCall, names: unknown): Promise<identity.Team[]> {
  const wanted = Array.isArray(names) ? [...new Set(names.filter((n): n is string => typeof n === 'string' && n.trim() !== '').map((n) => n.trim()))] : [];
  if (!wanted.length || call.access.owner?.type !== 'organization') return [];
  const teams: identity.Team[] = [];
  for (let page = 1; ; page++) {
    const found = await ctx.deps.services.orgs.ListTeams({ org: call.repo.owner, page: { page, limit: 50 } }, { caller: ctx.caller });
    teams.push(...found.teams);
    if (found.teams.length < 50 || teams.length >= Number(found.total)) break;
  }
  return wanted.map((name) => {
    const team = teams.find((t) => t.name.toLowerCase() === name.toLowerCase());
    if (!team) throw notFound(`team does not exist [org: ${call.repo.owner}, name: ${name}]`, 'team_not_found');
    return team;
  });
}

/**
 * Each team's members, listed by identity with the caller's own rights: whom the team's
 * request notifies (Gitea tells every member). A team whose members the caller may not
 * list notifies no one rather than refusing the request, which Gitea allows.
 */
async function membersOf(ctx: RouteContext, teams: identity.Team[]): Promise<collaboration.TeamMembers[]> {
  return Promise.all(teams.map(async (team) => {
    const userIds: number[] = [];
    try {
      for (let page = 1; ; page++) {
        const found = await ctx.deps.services.orgs.ListTeamMembers({ id: team.id, page: { page, limit: 50 } }, { caller: ctx.caller });
        userIds.push(...found.users.map((u) => Number(u.id)));
        if (found.users.length < 50 || userIds.length >= Number(found.total)) break;
      }
    } catch (err) {
      if (!(err instanceof DomainError && (err.kind === 'not_found' || err.kind === 'forbidden'))) throw err;
    }
    return { team_id: team.id, user_ids: userIds };
  }));
}

export const repoPullReviewRoutes: Route[] = [
  {
    method: 'GET', path: '/repos/:owner/:repo/pulls/:index/reviews', operationId: 'repoListPullReviews', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const { page, limit } = ctx.page();
      const reply = await ctx.deps.services.reviews.ListReviews({ pull_index: number(ctx.params.index), page: { page, limit } }, call.options);
      return ok(reply.reviews.map(present(ctx, call)), Number(reply.total));
    }),
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/pulls/:index/reviews', operationId: 'repoCreatePullReview', access: 'signed', scopes: ['repository'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const body = ctx.body as CreateReviewBody;
      const lines = commentLines(body.comments);
      let hunks: string[] = [];
      if (lines.length) {
        const pull = await ctx.deps.services.pulls.GetPull({ index: number(ctx.params.index) }, call.options);
        hunks = (await ctx.deps.services.pullGit.CutDiffHunks({
          ref: { owner: call.repo.owner, name: call.repo.name }, base: pull.merge_base || `refs/heads/${pull.base_branch}`, head: pull.head_sha,
          lines: lines.map((l) => ({ path: l.path, line: l.line })),
        }, call.options)).hunks;
      }
      const review = await ctx.deps.services.reviews.CreateReview({
        pull_index: number(ctx.params.index), event: body.event ?? '', body: body.body ?? '', commit_id: body.commit_id ?? '',
        comments: lines.map((l, i) => ({ ...l, diff_hunk: hunks[i] ?? '' })),
      }, call.options);
      return ok(present(ctx, call)(review));
    }),
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/pulls/:index/reviews/:id', operationId: 'repoGetPullReview', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => ok(present(ctx, call)(await ctx.deps.services.reviews.GetReview(ref(ctx), call.options)))),
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/pulls/:index/reviews/:id', operationId: 'repoSubmitPullReview', access: 'signed', scopes: ['repository'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const body = ctx.body as { event?: string; body?: string };
      return ok(present(ctx, call)(await ctx.deps.services.reviews.SubmitReview({ ...ref(ctx), event: body.event ?? '', body: body.body ?? '' }, call.options)));
    }),
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/pulls/:index/reviews/:id', operationId: 'repoDeletePullReview', access: 'signed', scopes: ['repository'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      await ctx.deps.services.reviews.DeleteReview(ref(ctx), call.options);
      return noContent();
    }),
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/pulls/:index/reviews/:id/comments', operationId: 'repoGetPullReviewComments', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const reply = await ctx.deps.services.reviews.ListReviewComments(ref(ctx), call.options);
      return ok(reply.comments.map((c) => presentReviewComment(c, call.repo, ctx.caller, ctx.deps.config.rootUrl)));
    }),
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/pulls/:index/reviews/:id/dismissals', operationId: 'repoDismissPullReview', access: 'signed', scopes: ['repository'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const body = ctx.body as { message?: string };
      return ok(present(ctx, call)(await ctx.deps.services.reviews.DismissReview({ ...ref(ctx), message: body.message ?? '', undo: false }, call.options)));
    }),
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/pulls/:index/reviews/:id/undismissals', operationId: 'repoUnDismissPullReview', access: 'signed', scopes: ['repository'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => ok(present(ctx, call)(await ctx.deps.services.reviews.DismissReview({ ...ref(ctx), message: '', undo: true }, call.options)))),
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/pulls/:index/requested_reviewers', operationId: 'repoCreatePullReviewRequests', access: 'signed', scopes: ['repository'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const body = ctx.body as { reviewers?: string[]; team_reviewers?: string[] };
      const teams = await teamsNamed(ctx, call, body.team_reviewers);
      const reply = await ctx.deps.services.reviews.RequestReviews({
        pull_index: number(ctx.params.index), reviewers: body.reviewers ?? [], teams, team_members: await membersOf(ctx, teams),
      }, call.options);
      return created(reply.reviews.map(present(ctx, call)));
    }),
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/pulls/:index/requested_reviewers', operationId: 'repoDeletePullReviewRequests', access: 'signed', scopes: ['repository'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const body = ctx.body as { reviewers?: string[]; team_reviewers?: string[] };
      const teams = await teamsNamed(ctx, call, body.team_reviewers);
      await ctx.deps.services.reviews.CancelReviewRequests({ pull_index: number(ctx.params.index), reviewers: body.reviewers ?? [], teams }, call.options);
      return noContent();
    }),
  },
];
