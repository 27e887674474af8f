// Repositories owned by users (routers/api/v1/repo/repo.go, user/repo.go): create, get,
// edit, delete, and the lists. Organization-owned repositories are in org-repos.ts.
import { invalid, notFound } from '@anvil/kit';
import type { repository } from '@anvil/proto';
import { created, noContent, ok, type Route, type RouteContext } from '../http/route.js';
import { presentOne, presentRepositories, repoCall, repoRef, resolveRepo } from './repo-context.js';

/** The pull request settings of Gitea's EditRepoOption, named as in the JSON from end to end. */
/**
 * EditRepoOption.internal_tracker as Gitea applies it: the object replaces all three
 * settings, a field left out being Go's false.
 */
function internalTrackerEdit(value: unknown) {
  if (!value || typeof value !== 'object') return undefined;
  const t = value as Record<string, unknown>;
  return {
    enable_time_tracker: t.enable_time_tracker === true,
    allow_only_contributors_to_track_time: t.allow_only_contributors_to_track_time === true,
    enable_issue_dependencies: t.enable_issue_dependencies === true,
  };
}

const PULL_REQUEST_SETTINGS = [
  'ignore_whitespace_conflicts', 'allow_merge_commits', 'allow_rebase', 'allow_rebase_explicit', 'allow_squash_merge',
  'allow_fast_forward_only_merge', 'allow_manual_merge', 'autodetect_manual_merge', 'allow_rebase_update', 'allow_merge_update',
  'default_delete_branch_after_merge', 'default_allow_maintainer_edit', 'default_merge_style', 'default_update_style',
] as const;

export const CREATE_OVERRIDES = { repo_limit_reached: 422, repo_exists: 409, forbidden: 403 };

interface CreateRepoOption {
  name: string;
  description?: string;
  private?: boolean;
  default_branch?: string;
  auto_init?: boolean;
  readme?: string;
  gitignores?: string;
  license?: string;
  template?: boolean;
  object_format_name?: string;
}

// Gitea's repoSearch sort keys.
const SORT_KEYS: Record<string, string> = {
  alpha: 'alpha', created: 'created', updated: 'updated', size: 'size', git_size: 'size', lfs_size: 'size', id: 'id', stars: 'stars', forks: 'forks',
};

// Gitea's repoSearch: `order` is read only when `sort` is given; its messages, its 422.
function sortOf(q: Record<string, unknown>): { sort: string; order: string } {
  const sort = typeof q.sort === 'string' ? q.sort : '';
  if (!sort) return { sort: 'id', order: 'asc' };
  const order = typeof q.order === 'string' && q.order ? q.order : 'asc';
  if (order !== 'asc' && order !== 'desc') throw invalid(`Invalid sort order: "${order}"`);
  if (!Object.hasOwn(SORT_KEYS, sort)) throw invalid(`Invalid sort mode: "${sort}"`);
  return { sort: SORT_KEYS[sort], order };
}

const SEARCH_MODES = new Set(['', 'source', 'fork', 'mirror', 'collaborative']);

export function createOption(ctx: RouteContext, ownerId: number): repository.CreateRepositoryRequest {
  const body = ctx.body as CreateRepoOption;
  return {
    owner_id: ownerId, name: body.name ?? '', description: body.description ?? '', private: body.private ?? false,
    default_branch: body.default_branch ?? '', auto_init: body.auto_init ?? false, readme: body.readme ?? '',
    template: body.template ?? false, object_format_name: body.object_format_name ?? '',
    gitignores: body.gitignores ?? '', license: body.license ?? '',
  };
}

function boolParam(value: unknown): boolean | undefined {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return undefined;
}

export async function search(ctx: RouteContext, request: Partial<repository.SearchRepositoriesRequest>) {
  const { page, limit } = ctx.page();
  return ctx.deps.services.repository.SearchRepositories({ q: '', sort: '', order: '', visibility: '', archived: '', mode: '', owner_login: '', ...request, page: { page, limit } }, repoCall(ctx));
}

/**
 * A page of the repositories among `ids` the caller may see (a user's watched or starred
 * ones), presented, in one search call; X-Total-Count counts only the visible ones.
 */
export async function visibleRepositoriesOf(ctx: RouteContext, ids: number[]) {
  if (!ids.length) return ok([], 0);
  const reply = await search(ctx, { ids });
  return ok(presentRepositories(ctx, reply.repositories), Number(reply.total));
}

async function listUserRepos(ctx: RouteContext) {
  const reply = await search(ctx, { owner_login: ctx.params.username, exclusive: true });
  return ok(presentRepositories(ctx, reply.repositories), reply.total);
}

export const repoRoutes: Route[] = [
  {
    method: 'POST', path: '/user/repos', operationId: 'createCurrentUserRepo', access: 'signed', scopes: ['user', 'repository'],
    statusOverrides: CREATE_OVERRIDES,
    async handle(ctx) {
      const access = await ctx.deps.services.repository.CreateRepository(createOption(ctx, ctx.caller.userId), repoCall(ctx));
      return created(presentOne(ctx, access));
    },
  },
  {
    method: 'POST', path: '/admin/users/:username/repos', operationId: 'adminCreateRepo', access: 'admin', scopes: ['admin'],
    statusOverrides: CREATE_OVERRIDES,
    async handle(ctx) {
      const owner = await ctx.deps.services.repository.GetOwner({ login: ctx.params.username }, repoCall(ctx));
      const access = await ctx.deps.services.repository.CreateRepository(createOption(ctx, owner.id), repoCall(ctx));
      return created(presentOne(ctx, access));
    },
  },
  {
    method: 'GET', path: '/repos/search', operationId: 'repoSearch', access: 'public', scopes: ['repository'],
    async handle(ctx) {
      const q = ctx.query;
      const isPrivate = boolParam(q.is_private);
      // `private=false` hides private repositories even from those who may see them.
      const includePrivate = boolParam(q.private) ?? true;
      const archived = boolParam(q.archived);
      const template = boolParam(q.template);
      const mode = typeof q.mode === 'string' ? q.mode : '';
      if (!SEARCH_MODES.has(mode)) throw invalid(`Invalid search mode: "${mode}"`);
      const { sort, order } = sortOf(q);
      // Mirrors are not told apart in a search yet: asking only for them finds nothing.
      if (mode === 'mirror') return ok({ ok: true, data: [] }, 0);
      const reply = await search(ctx, {
        q: typeof q.q === 'string' ? q.q : '',
        owner_id: Number(q.uid) || 0,
        exclusive: boolParam(q.exclusive) ?? false,
        include_collaborative: true,
        visibility: isPrivate === true ? 'private' : isPrivate === false || !includePrivate ? 'public' : '',
        archived: archived === undefined ? '' : String(archived),
        mode,
        sort,
        order,
        template,
      });
      return ok({ ok: true, data: presentRepositories(ctx, reply.repositories) }, reply.total);
    },
  },
  {
    method: 'GET', path: '/user/repos', operationId: 'userCurrentListRepos', access: 'signed', scopes: ['user', 'repository'],
    async handle(ctx) {
      const reply = await search(ctx, { owner_id: ctx.caller.userId, include_collaborative: true });
      return ok(presentRepositories(ctx, reply.repositories), reply.total);
    },
  },
  {
    method: 'GET', path: '/users/:username/repos', operationId: 'userListRepos', access: 'public', scopes: ['user', 'repository'],
    handle: listUserRepos,
  },
  // The specification names this list `/user/{username}/repos`; Gitea and its document
  // spell it `/users/...`. Both answer the same.
  {
    method: 'GET', path: '/user/:username/repos', operationId: 'userListRepos', access: 'public', scopes: ['user', 'repository'],
    handle: listUserRepos,
  },
  {
    // Gitea routes this one with reqToken(): anonymous callers get 401.
    method: 'GET', path: '/repositories/:id', operationId: 'repoGetByID', access: 'signed', scopes: ['repository'],
    async handle(ctx) {
      const id = Number(ctx.params.id);
      if (!Number.isSafeInteger(id) || id <= 0) throw notFound('The target couldn\'t be found.');
      return ok(presentOne(ctx, await ctx.deps.services.repository.GetRepositoryById({ id }, repoCall(ctx))));
    },
  },
  {
    method: 'GET', path: '/repos/:owner/:repo', operationId: 'repoGet', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    async handle(ctx) {
      const access = await resolveRepo(ctx);
      return ok(presentOne(ctx, access));
    },
  },
  {
    // The SPDX ids of the default branch's license files, as the repository JSON's `licenses`.
    method: 'GET', path: '/repos/:owner/:repo/licenses', operationId: 'repoGetLicenses', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    async handle(ctx) {
      return ok((await resolveRepo(ctx)).repository?.licenses ?? []);
    },
  },
  {
    method: 'PATCH', path: '/repos/:owner/:repo', operationId: 'repoEdit', access: 'signed', scopes: ['repository'],
    repoAccess: 'admin',
    statusOverrides: { repo_exists: 422, invalid_branch_name: 422 },
    async handle(ctx) {
      const b = ctx.body as Record<string, unknown>;
      const opt = <T>(key: string) => (b[key] === undefined || b[key] === null ? undefined : (b[key] as T));
      const access = await ctx.deps.services.repository.EditRepository({
        ref: repoRef(ctx),
        name: opt<string>('name'),
        description: opt<string>('description'),
        website: opt<string>('website'),
        private: opt<boolean>('private'),
        archived: opt<boolean>('archived'),
        default_branch: opt<string>('default_branch'),
        has_issues: opt<boolean>('has_issues'),
        has_wiki: opt<boolean>('has_wiki'),
        has_pull_requests: opt<boolean>('has_pull_requests'),
        has_projects: opt<boolean>('has_projects'),
        has_releases: opt<boolean>('has_releases'),
        has_packages: opt<boolean>('has_packages'),
        has_actions: opt<boolean>('has_actions'),
        has_code: opt<boolean>('has_code'),
        template: opt<boolean>('template'),
        pull_request_settings: Object.fromEntries(PULL_REQUEST_SETTINGS.map((key) => [key, opt(key)])),
        internal_tracker: internalTrackerEdit(b.internal_tracker),
      }, repoCall(ctx));
      return ok(presentOne(ctx, access));
    },
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo', operationId: 'repoDelete', access: 'signed', scopes: ['repository'],
    repoAccess: 'owner',
    async handle(ctx) {
      await ctx.deps.services.repository.DeleteRepository(repoRef(ctx), repoCall(ctx));
      return noContent();
    },
  },
];
