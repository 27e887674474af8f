// Pull requests (routers/api/v1/repo/pull.go). Git facts come from the repository service's
// narrow pull RPCs (pull_git.proto) and are handed to collaboration, which stores them: a
// list is one collaboration call and never runs git. A merge is one collaboration call too:
// it has the repository service land the merge (its write turn, THE protection check,
// update-ref <new> <old>) and then records it, as Gitea pushes before it marks the pull merged.
import { DomainError, forbidden, invalid, notFound } from '@anvil/kit';
import type { collaboration, repository } from '@anvil/proto';
import { repoAccessRefusal } from '../http/repo-access.js';
import { created, noContent, ok, type Route, type RouteContext } from '../http/route.js';
import { presentCommit } from '@anvil/presenters/commits.js';
import { pullListJson } from '@anvil/presenters/pull-list-json.js';
import { isFromFork, presentPull, pullContext, type PullContext } from '@anvil/presenters/pull.js';
import { presentRepository } from '@anvil/presenters/repository.js';
import { repoUrls } from '@anvil/presenters/repo-urls.js';
import { assignableFor } from './assignees.js';
import { inRepository, type RepositoryCall } from './issue-scope.js';
import { timestampOf } from './repo-issues.js';
import { repoUrlsOf } from './repo-context.js';
import { repositoryGrant, sideChannelPath, streamFromRepository } from './side-channel.js';

// Gitea: archived repositories are 423; merge refusals 405 (not allowed, not ready, already
// merged), conflicts and races 409 (routers/api/v1/repo/pull.go MergePullRequest).
const WRITE_STATUSES = { repo_archived: 423 };
const MERGE_STATUSES = {
  ...WRITE_STATUSES, not_allowed_to_merge: 405, not_ready_to_merge: 405, push_rejected: 405, already_merged: 405,
  not_mergeable: 409, not_fast_forward: 409, no_merge_base: 409, head_moved: 409, push_out_of_date: 409, invalid_merge_style: 422,
  merge_style_not_allowed: 405, wrong_commit_id: 409, auto_merge_exists: 409,
};

const MERGE_STYLES = new Set(['merge', 'rebase', 'rebase-merge', 'squash', 'fast-forward-only', 'manually-merged']);

const text = (ctx: RouteContext, name: string) => (typeof ctx.query[name] === 'string' ? (ctx.query[name] as string) : '');
const indexOf = (value: string) => (/^\d{1,15}$/.test(value) ? Number(value) : 0);

/**
 * What presenting a page of pulls of one repository needs; the forks their heads come from
 * are loaded in one call for the whole page, and only when a pull comes from one. Gitea shows
 * a fork to whoever may read the pull, with that caller's permission on the fork.
 */
async function pageContext(ctx: RouteContext, call: RepositoryCall, pulls: collaboration.PullRequest[]): Promise<Omit<PullContext, 'repoJson'>> {
  const context: Omit<PullContext, 'repoJson'> = { access: call.access, repo: call.repo, caller: ctx.caller, rootUrl: ctx.deps.config.rootUrl };
  const baseId = Number(call.access.repository!.id);
  const forkIds = [...new Set(pulls.filter((p) => isFromFork(p, baseId)).map((p) => String(p.head_repo_id)))];
  if (forkIds.length) {
    const found = await ctx.deps.services.repository.ListPullHeadRepositories({ ref: refOf(call), ids: forkIds }, call.options);
    context.headRepos = headRepositoriesJson(ctx, found.repositories);
  }
  return context;
}

const headRepositoriesJson = (ctx: RouteContext, found: repository.RepositoryAccess[]) => new Map(found.flatMap((access) => (access.owner
  ? [[Number(access.repository!.id), presentRepository(access, access.owner, ctx.caller, ctx.deps.config.rootUrl)] as const]
  : [])));

async function presentAll(ctx: RouteContext, call: RepositoryCall, pulls: collaboration.PullRequest[]) {
  const context = pullContext(await pageContext(ctx, call, pulls));
  return pulls.map((pull) => presentPull(pull, context));
}

const presentOnePull = async (ctx: RouteContext, call: RepositoryCall, pull: collaboration.PullRequest) => (await presentAll(ctx, call, [pull]))[0];

const refOf = (call: RepositoryCall) => ({ owner: call.repo.owner, name: call.repo.name });

/** `branch` or `owner:branch`; another owner's head is in a fork of the base's network. */
function headOf(head: string, call: RepositoryCall): { forkOwner?: string; branch: string } {
  const colon = head.indexOf(':');
  if (colon < 0) return { branch: head };
  const owner = head.slice(0, colon);
  const branch = head.slice(colon + 1);
  return owner.toLowerCase() === call.repo.owner.toLowerCase() ? { branch } : { forkOwner: owner, branch };
}

/**
 * The head of GET /pulls/{base}/{head} as Gitea's GetPullRequestByBaseHead reads it: `branch`
 * (the base repository's), `owner:branch` (owner's repository of the base's name) or
 * `owner/repo:branch`. The repository is undefined for the base itself.
 */
function lookedUpHeadOf(head: string, call: RepositoryCall): { repository?: { owner: string; name: string }; branch: string } {
  const colon = head.indexOf(':');
  if (colon < 0) return { branch: head };
  const where = head.slice(0, colon);
  const slash = where.indexOf('/');
  const owner = slash < 0 ? where : where.slice(0, slash);
  const name = slash < 0 ? call.repo.name : where.slice(slash + 1);
  const branch = head.slice(colon + 1);
  const isBase = owner.toLowerCase() === call.repo.owner.toLowerCase() && name.toLowerCase() === call.repo.name.toLowerCase();
  return isBase ? { branch } : { repository: { owner, name }, branch };
}

/** Where the pull's head is kept whatever happens to its branch (refs/pull/<index>/head). */
const pullRef = (pull: collaboration.PullRequest) => `refs/pull/${pull.issue!.index}/head`;

async function pullOf(ctx: RouteContext, call: RepositoryCall, index: string) {
  return ctx.deps.services.pulls.GetPull({ index: indexOf(index) }, call.options);
}

interface CreatePullBody { title?: string; body?: string; head?: string; base?: string; assignee?: string; assignees?: string[]; labels?: number[]; milestone?: number; due_date?: string }
interface EditPullBody {
  title?: string; body?: string; state?: string; base?: string; assignee?: string; assignees?: string[]; labels?: number[];
  milestone?: number; due_date?: string; unset_due_date?: boolean;
}
interface MergePullBody {
  Do?: string; do?: string; merge_message_field?: string; merge_title_field?: string; delete_branch_after_merge?: boolean;
  head_commit_id?: string; force_merge?: boolean; merge_commit_id?: string; merge_when_checks_succeed?: boolean;
}

export const repoPullRoutes: Route[] = [
  {
    method: 'GET', path: '/repos/:owner/:repo/pulls', operationId: 'repoListPullRequests', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const { page, limit } = ctx.page();
      const labels = ([] as unknown[]).concat(ctx.query.labels ?? []).map(Number).filter((n) => Number.isSafeInteger(n) && n > 0);
      const reply = await ctx.deps.services.pulls.ListPulls({
        state: text(ctx, 'state'), sort: text(ctx, 'sort'), milestone: Number(text(ctx, 'milestone')) || 0, labels,
        poster: text(ctx, 'poster'), page: { page, limit },
      }, call.options);
      // One page of JSON text, its repository serialized once (pull-list-json.ts).
      const json = pullListJson(reply.pulls, await pageContext(ctx, call, reply.pulls));
      return { status: 200, body: Buffer.from(json), contentType: 'application/json;charset=utf-8', total: Number(reply.total) };
    }),
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/pulls', operationId: 'repoCreatePullRequest', access: 'signed', scopes: ['repository'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const body = ctx.body as CreatePullBody;
      const base = body.base ?? '';
      const { forkOwner, branch: head } = headOf(body.head ?? '', call);
      if (!base || !head) throw notFound('base or head branch does not exist', 'branch_not_found');
      if (!forkOwner && base === head) throw invalid('Invalid PullRequest: There are no changes between the head and the base', 'same_branch');
      // A fork's head is copied into the base first (its objects only: the pull has no index
      // yet), so it is compared with the base like any other commit of the base.
      const fork = forkOwner
        ? await ctx.deps.services.pullGit.FetchForkHead({ ref: refOf(call), head_owner: forkOwner, head_branch: head, index: 0 }, call.options)
        : undefined;
      const range = { ref: refOf(call), base: `refs/heads/${base}`, head: fork ? fork.head_sha : `refs/heads/${head}` };
      // The pull's git facts, asked side by side as a push's re-check asks them. The commits the
      // head brings are counted too, as Gitea's NewPullRequest does (syncCommitDivergence): the
      // repository service remembers the count by the two commit ids, and a merge of the same
      // base and head takes it from there instead of counting again.
      const checking = ctx.deps.services.pullGit.CheckMergeability(range, call.options);
      const counting = ctx.deps.services.pullGit.CountDivergingCommits(range, call.options).catch(() => undefined);
      const statsAsked = ctx.deps.services.pullGit.GetDiffStats({ ...range, page: 1, limit: 0 }, call.options);
      statsAsked.catch(() => {}); // awaited below, once the check said the histories meet
      const checked = await checking;
      if (!checked.merge_base) throw invalid('Invalid PullRequest: the head and the base have no common history', 'no_merge_base');
      const [stats] = await Promise.all([statsAsked, counting]);
      const assignees = [...(body.assignee ? [body.assignee] : []), ...(body.assignees ?? [])];
      const pull = await ctx.deps.services.pulls.CreatePull({
        title: body.title ?? '', body: body.body ?? '', base_branch: base, head_branch: head,
        head_sha: checked.head_sha, merge_base: checked.merge_base, mergeable: checked.mergeable, conflicted_files: checked.conflicted_files,
        additions: stats.additions, deletions: stats.deletions, changed_files: stats.changed_files, base_sha: checked.base_sha,
        assignees, labels: body.labels ?? [], milestone: body.milestone ?? 0, due_date: timestampOf(body.due_date, 'due_date'),
        assignable: await assignableFor(ctx, call, assignees),
        head_repo_id: fork?.head?.repository?.id ?? 0, head_owner_login: fork?.head?.owner?.login ?? '',
        head_repository: fork?.head ? { repository: fork.head.repository, repository_owner: fork.head.owner, repository_parent: fork.head.parent } : undefined,
      }, call.options);
      if (fork) {
        // The pull's own ref, fetched from the fork (a push meanwhile reaches it through the push consumer).
        await ctx.deps.services.pullGit.FetchForkHead({ ref: refOf(call), head_owner: forkOwner!, head_branch: head, index: pull.issue!.index }, call.options);
      } else {
        await ctx.deps.services.pullGit.UpdatePullRef({ ref: refOf(call), index: pull.issue!.index, head: checked.head_sha }, call.options);
      }
      return created(await presentOnePull(ctx, call, pull));
    }),
  },
  {
    // `/pulls/{index}.{diffType}` before `/pulls/{index}`, which would read `1.diff` as an index.
    method: 'GET', path: '/repos/:owner/:repo/pulls/:index.:diffType', operationId: 'repoDownloadPullDiffOrPatch', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      if (ctx.params.diffType !== 'diff' && ctx.params.diffType !== 'patch') throw notFound('The target couldn\'t be found.', 'not_found');
      const pull = await pullOf(ctx, call, ctx.params.index);
      // Bulk text: streamed from the repository service's side channel, not carried in gRPC.
      const base = pull.merge_base || `refs/heads/${pull.base_branch}`;
      const head = pull.head_sha || pullRef(pull);
      return streamFromRepository(ctx, sideChannelPath(call.access, `pull-diff/${encodeURIComponent(base)}/${encodeURIComponent(head)}.${ctx.params.diffType}`), {
        grant: repositoryGrant(ctx, call.access), passStatuses: [200], passHeaders: ['content-type'],
        onRefused: (status) => (status === 404 ? notFound('The target couldn\'t be found.', 'diff_not_found') : new Error(`pull diff failed upstream with status ${status}`)),
      });
    }),
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/pulls/:index', operationId: 'repoGetPullRequest', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => ok(await presentOnePull(ctx, call, await pullOf(ctx, call, ctx.params.index)))),
  },
  {
    // Gitea answers an edit with 201. Title, body, state, milestone, assignees and due date
    // edit the pull's issue (the issue rules decide who may).
    method: 'PATCH', path: '/repos/:owner/:repo/pulls/:index', operationId: 'repoEditPullRequest', access: 'signed', scopes: ['repository'], statusOverrides: { ...WRITE_STATUSES, assignee_no_access: 403 },
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const body = ctx.body as EditPullBody;
      const pull = await pullOf(ctx, call, ctx.params.index);
      if (pull.has_merged && body.state) throw new DomainError('bad_request', 'cannot change state of this pull request, it was already merged', 'already_merged');
      if (body.base && body.base !== pull.base_branch) {
        // Changing the base needs write, on a route the poster may use for the rest: the
        // level is checked here for that one field, with the route table's refusal.
        const refused = repoAccessRefusal('write', call.access, ctx.caller);
        if (refused) throw refused;
        // A new base is checked like a new pull: it must exist, and mergeability is asked again.
        const range = { ref: refOf(call), base: `refs/heads/${body.base}`, head: pull.head_sha };
        const checked = await ctx.deps.services.pullGit.CheckMergeability(range, call.options);
        const stats = await ctx.deps.services.pullGit.GetDiffStats({ ...range, page: 1, limit: 0 }, call.options);
        await ctx.deps.services.pulls.ChangePullBase({
          index: pull.issue!.index, base_branch: body.base, head_sha: checked.head_sha, merge_base: checked.merge_base, mergeable: checked.mergeable,
          conflicted_files: checked.conflicted_files, additions: stats.additions, deletions: stats.deletions, changed_files: stats.changed_files,
        }, call.options);
      }
      // Labels of the repository and of its organization; Gitea changes them only for writers
      // and ignores them from anyone else.
      if (Array.isArray(body.labels) && ['write', 'admin', 'owner'].includes(call.access.permission)) {
        await ctx.deps.services.labels.ReplaceIssueLabels({ index: pull.issue!.index, labels: body.labels.map(String) }, call.options);
      }
      const setAssignees = body.assignees !== undefined || body.assignee !== undefined;
      const assignees = [...(body.assignee ? [body.assignee] : []), ...(body.assignees ?? [])];
      await ctx.deps.services.issues.EditIssue({
        index: pull.issue!.index, title: body.title, body: body.body, state: body.state, milestone: body.milestone,
        set_assignees: setAssignees, assignees, due_date: timestampOf(body.due_date, 'due_date'), unset_due_date: body.unset_due_date ?? false,
        assignable: await assignableFor(ctx, call, assignees),
      }, call.options);
      return created(await presentOnePull(ctx, call, await pullOf(ctx, call, ctx.params.index)));
    }),
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/pulls/:index/files', operationId: 'repoGetPullRequestFiles', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const pull = await pullOf(ctx, call, ctx.params.index);
      const { page, limit } = ctx.page();
      const stats = await ctx.deps.services.pullGit.GetDiffStats({
        ref: refOf(call), base: pull.merge_base || `refs/heads/${pull.base_branch}`, head: pull.head_sha, page, limit,
      }, call.options);
      const urls = repoUrls(ctx.deps.config.rootUrl, call.repo.owner, call.repo.name);
      const path = (f: string) => f.split('/').map(encodeURIComponent).join('/');
      return ok(stats.files.map((f) => ({
        filename: f.filename, previous_filename: f.previous_filename, status: f.status, additions: f.additions, deletions: f.deletions, changes: f.changes,
        html_url: `${urls.html}/src/commit/${pull.head_sha}/${path(f.filename)}`,
        contents_url: `${urls.api}/contents/${path(f.filename)}?ref=${pull.head_sha}`,
        raw_url: `${urls.html}/raw/commit/${pull.head_sha}/${path(f.filename)}`,
      })), Number(stats.changed_files));
    }),
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/pulls/:index/commits', operationId: 'repoGetPullRequestCommits', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const pull = await pullOf(ctx, call, ctx.params.index);
      const { page, limit } = ctx.page();
      const reply = await ctx.deps.services.commits.ListCommits({
        ref: refOf(call), sha: pull.head_sha, not: pull.merge_base, path: '', since: '', until: '', page, limit,
        details: { stat: true, verification: true, files: true }, summary_only: false,
      }, { caller: ctx.caller });
      const urls = repoUrlsOf(ctx, reply.repository);
      return ok(reply.commits.map((c) => presentCommit(c, urls, ctx.caller, ctx.deps.config.rootUrl)), Number(reply.total));
    }),
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/pulls/:index/merge', operationId: 'repoPullRequestIsMerged', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const pull = await pullOf(ctx, call, ctx.params.index);
      if (!pull.has_merged) throw notFound('The target couldn\'t be found.', 'not_merged');
      return noContent();
    }),
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/pulls/:index/merge', operationId: 'repoMergePullRequest', access: 'signed', scopes: ['repository'], statusOverrides: MERGE_STATUSES,
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const body = ctx.body as MergePullBody;
      const style = body.Do ?? body.do ?? '';
      if (!MERGE_STYLES.has(style)) throw invalid(`[Do]: In(merge,rebase,rebase-merge,squash,fast-forward-only,manually-merged)`, 'invalid_merge_style');
      const message = [body.merge_title_field, body.merge_message_field].filter(Boolean).join('\n\n');
      // One call: collaboration reads the pull and its reviews, has the repository service
      // merge as this caller, and records the merge before answering. merge_when_checks_succeed
      // merges now when the head's checks already succeed (Gitea), else keeps it (201).
      const { scheduled } = await ctx.deps.services.pulls.MergePull({
        index: indexOf(ctx.params.index), style, message: message ? `${message}\n` : '',
        // Not said: the repository's default_delete_branch_after_merge decides.
        delete_branch_after_merge: body.delete_branch_after_merge, head_commit_id: body.head_commit_id ?? '',
        force_merge: body.force_merge ?? false, merge_commit_id: body.merge_commit_id ?? '',
        merge_when_checks_succeed: body.merge_when_checks_succeed ?? false,
        // Merges of one repository take turns: a merge may wait behind others before its own.
      }, { ...call.options, deadlineMs: 60_000 });
      return scheduled ? created(undefined) : ok(undefined);
    }),
  },
  {
    // Cancels a scheduled merge: 404 when none, 403 for anyone but its doer or an admin.
    method: 'DELETE', path: '/repos/:owner/:repo/pulls/:index/merge', operationId: 'repoCancelScheduledAutoMerge', access: 'signed', scopes: ['repository'],
    statusOverrides: { ...WRITE_STATUSES, auto_merge_cancel_denied: 403 },
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      await ctx.deps.services.pulls.CancelAutoMerge({ index: indexOf(ctx.params.index) }, call.options);
      return noContent();
    }),
  },
  {
    // Gitea: anything but style=rebase merges; a merged or closed pull is 422, a caller who may
    // not push to the head (or a style the repository turned off) 403, a conflict 409.
    method: 'POST', path: '/repos/:owner/:repo/pulls/:index/update', operationId: 'repoUpdatePullRequest', access: 'signed', scopes: ['repository'],
    statusOverrides: { ...WRITE_STATUSES, update_not_allowed: 403, push_rejected: 403, merge_conflict: 409, rebase_conflict: 409, push_out_of_date: 409 },
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const pull = await pullOf(ctx, call, ctx.params.index);
      if (pull.has_merged || pull.issue!.state === 'closed') throw invalid('the pull request is closed or merged', 'pull_closed');
      // A fork's head branch is the fork's: the repository service updates it there, for a
      // caller who may write to the fork.
      const fromFork = isFromFork(pull, Number(call.access.repository!.id));
      const updated = await ctx.deps.services.pullGit.UpdatePullHead({
        ref: refOf(call), base_branch: pull.base_branch, head_branch: pull.head_branch, style: text(ctx, 'style') === 'rebase' ? 'rebase' : 'merge',
        head_repository_id: fromFork ? pull.head_repo_id : 0,
      }, { ...call.options, deadlineMs: 60_000 });
      // The head branch moved like any push: the push consumer brings the pull's facts along.
      // Its own ref (refs/pull/<index>/head) is moved here already, a fork's fetched from the fork.
      if (updated.head_sha !== updated.head_before) {
        if (fromFork) {
          await ctx.deps.services.pullGit.FetchForkHead({
            ref: refOf(call), head_owner: '', head_repository_id: pull.head_repo_id, head_branch: pull.head_branch, index: pull.issue!.index,
          }, call.options);
        } else {
          await ctx.deps.services.pullGit.UpdatePullRef({ ref: refOf(call), index: pull.issue!.index, head: updated.head_sha }, call.options);
        }
      }
      return ok(undefined);
    }),
  },
  {
    // Last: `/pulls/{index}/files` and the like would otherwise be read as a base and a head.
    // The head may hold `/` (`owner/repo:branch`, a branch `feature/x`): Gitea's `/{base}/*`.
    method: 'GET', path: '/repos/:owner/:repo/pulls/:base/*head', operationId: 'repoGetPullRequestByBaseHead', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const { repository: named, branch } = lookedUpHeadOf(ctx.splat('head'), call);
      // Another repository is looked up in the base's network (a fork, or the base's parent),
      // whoever may see it, as Gitea finds it by name; none there is 404.
      let headRepoId = 0;
      if (named) {
        const found = await ctx.deps.services.repository.ListPullHeadRepositories({ ref: refOf(call), ids: [], head: named }, call.options);
        if (!found.repositories.length) throw notFound('The target couldn\'t be found.', 'head_repo_not_found');
        headRepoId = Number(found.repositories[0]!.repository!.id);
      }
      return ok(await presentOnePull(ctx, call, await ctx.deps.services.pulls.GetPullByBranches({
        base_branch: ctx.params.base, head_branch: branch, head_repo_id: headRepoId,
      }, call.options)));
    }),
  },
];
