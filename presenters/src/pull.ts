// Pull requests as Gitea's JSON (services/convert/pull.go ToAPIPullRequest). The issue part is
// the issue presenter's; base and head come from what collaboration stored, so a head whose
// branch was deleted still reports its ref, sha and label.
import { ANONYMOUS, type Caller } from '@anvil/kit';
import type { collaboration, identity, repository } from '@anvil/proto';
import { isDraftTitle, presentIssue, type IssueRepository } from './issue.js';
import { presentRepository } from './repository.js';
import { presentTeam } from './team.js';
import { repoUrls } from './repo-urls.js';
import { formatTime } from './time.js';
import { presentUser } from './user.js';

export interface PullContext {
  access: repository.RepositoryAccess;
  repo: IssueRepository;
  caller: Caller;
  rootUrl: string;
  /** The repository's JSON, built once per request (a page of 50 pulls shows it 100 times). */
  repoJson?: ReturnType<typeof presentRepository> | null;
  /** The JSON of the forks the page's pulls come from, by id, with the caller's permission there: those that still exist. */
  headRepos?: ReadonlyMap<number, ReturnType<typeof presentRepository>>;
}

/** A pull whose head lives in another repository (a fork in the base's network). */
export function isFromFork(pull: collaboration.PullRequest, baseRepositoryId: number): boolean {
  const head = Number(pull.head_repo_id ?? 0);
  return head > 0 && head !== Number(baseRepositoryId);
}

// Gitea's draft pull (kept beside the issue presenter, whose pull_request meta says it too).
export { isDraftTitle };

/** A context for presenting many pulls of one repository: its JSON is built once. */
export function pullContext(ctx: Omit<PullContext, 'repoJson'>): PullContext {
  return { ...ctx, repoJson: ctx.access.owner ? presentRepository(ctx.access, ctx.access.owner, ctx.caller, ctx.rootUrl) : null };
}

/**
 * The head of a pull from a fork: labelled `owner:branch` (GitHub's and Gitea's clients read
 * the owner from it), with the fork's JSON while the fork exists (shown to whoever may read
 * the pull, as Gitea does); once it is gone, no repository and Gitea's repo_id -1. Ref and
 * sha stay what was stored.
 */
function forkHead(pull: collaboration.PullRequest, ctx: PullContext) {
  const repo = ctx.headRepos?.get(Number(pull.head_repo_id)) ?? null;
  const label = pull.head_owner_login ? `${pull.head_owner_login}:${pull.head_branch}` : pull.head_branch;
  return { label, ref: pull.head_branch, sha: pull.head_sha, repo_id: repo ? Number(pull.head_repo_id) : -1, repo };
}

export function presentPull(pull: collaboration.PullRequest, ctx: PullContext) {
  const issue = presentIssue(pull.issue!, ctx.repo, ctx.caller, ctx.rootUrl);
  const urls = repoUrls(ctx.rootUrl, ctx.repo.owner, ctx.repo.name);
  const repoJson = ctx.repoJson !== undefined ? ctx.repoJson : pullContext(ctx).repoJson;
  const branch = (ref: string, sha: string) => ({ label: ref, ref, sha, repo_id: ctx.repo.id, repo: repoJson });
  const htmlUrl = `${urls.html}/pulls/${pull.issue!.index}`;
  return {
    id: issue.id,
    url: htmlUrl,
    number: issue.number,
    user: issue.user,
    title: issue.title,
    body: issue.body,
    labels: issue.labels,
    milestone: issue.milestone,
    assignee: issue.assignee,
    assignees: issue.assignees,
    // Gitea converts these users (and the merger) with no viewer (convert.ToUser(ctx, u, nil)).
    // Messages built before these fields existed (events already on the stream) have none.
    requested_reviewers: (pull.requested_reviewers ?? []).map((u) => presentUser(u as identity.User, ANONYMOUS, ctx.rootUrl)),
    requested_reviewers_teams: (pull.requested_reviewer_teams ?? []).map((t) => presentTeam(t, ctx.rootUrl)),
    state: issue.state,
    draft: isDraftTitle(issue.title),
    is_locked: issue.is_locked,
    comments: issue.comments,
    review_comments: Number(pull.review_comments ?? 0),
    additions: pull.additions,
    deletions: pull.deletions,
    changed_files: pull.changed_files,
    html_url: htmlUrl,
    diff_url: `${htmlUrl}.diff`,
    patch_url: `${htmlUrl}.patch`,
    // Gitea's PullRequest.Mergeable: not while checking or conflicting, and never for a work-in-progress pull.
    mergeable: pull.status === 'mergeable' && !pull.has_merged && !isDraftTitle(issue.title),
    merged: pull.has_merged,
    merged_at: pull.merged_at ? formatTime(pull.merged_at) : null,
    merge_commit_sha: pull.has_merged ? pull.merge_commit_sha : '',
    merged_by: pull.merged_by ? presentUser(pull.merged_by as identity.User, ANONYMOUS, ctx.rootUrl) : null,
    allow_maintainer_edit: false,
    base: branch(pull.base_branch, pull.base_sha ?? ''),
    head: isFromFork(pull, ctx.repo.id) ? forkHead(pull, ctx) : branch(pull.head_branch, pull.head_sha),
    merge_base: pull.merge_base,
    due_date: issue.due_date,
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    closed_at: issue.closed_at,
    pin_order: issue.pin_order,
    content_version: issue.content_version,
  };
}
