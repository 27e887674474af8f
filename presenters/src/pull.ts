// Pull requests as Gitea's JSON (services/convert/pull.go ToAPIPullRequest). The issue part is
// the issue presenter's; base and head come from what collaboration stored, so a head whose
// branch was deleted still reports its ref, sha and label.
import type { Caller } from '@anvil/kit';
import type { collaboration, identity, repository } from '@anvil/proto';
import { presentIssue, type IssueRepository } from './issue.js';
import { presentRepository } from './repository.js';
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
}

/**
 * Gitea's draft pull: a title starting with one of `[repository.pull-request]
 * WORK_IN_PROGRESS_PREFIXES` (default `WIP:,[WIP]`), compared case-insensitively
 * (issues_model.HasWorkInProgressPrefix). Derived, never stored.
 */
const WORK_IN_PROGRESS_PREFIXES = ['WIP:', '[WIP]'];

export function isDraftTitle(title: string): boolean {
  const upper = title.toUpperCase();
  return WORK_IN_PROGRESS_PREFIXES.some((prefix) => upper.startsWith(prefix));
}

/** A context for presenting many pulls of one repository: its JSON is built once. */
export function pullContext(ctx: Omit<PullContext, 'repoJson'>): PullContext {
  return { ...ctx, repoJson: ctx.access.owner ? presentRepository(ctx.access, ctx.access.owner, ctx.caller, ctx.rootUrl) : null };
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
    requested_reviewers: [],
    requested_reviewers_teams: [],
    state: issue.state,
    draft: isDraftTitle(issue.title),
    is_locked: issue.is_locked,
    comments: issue.comments,
    review_comments: 0,
    additions: pull.additions,
    deletions: pull.deletions,
    changed_files: pull.changed_files,
    html_url: htmlUrl,
    diff_url: `${htmlUrl}.diff`,
    patch_url: `${htmlUrl}.patch`,
    mergeable: pull.status === 'mergeable' && !pull.has_merged,
    merged: pull.has_merged,
    merged_at: pull.merged_at ? formatTime(pull.merged_at) : null,
    merge_commit_sha: pull.has_merged ? pull.merge_commit_sha : '',
    merged_by: pull.merged_by ? presentUser(pull.merged_by as identity.User, ctx.caller, ctx.rootUrl) : null,
    allow_maintainer_edit: false,
    base: branch(pull.base_branch, ''),
    head: branch(pull.head_branch, pull.head_sha),
    merge_base: pull.merge_base,
    due_date: issue.due_date,
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    closed_at: issue.closed_at,
    pin_order: issue.pin_order,
    content_version: issue.content_version,
  };
}
