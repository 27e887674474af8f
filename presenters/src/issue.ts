// Issues, labels and milestones as Gitea's JSON (services/convert/issue.go ToAPIIssue,
// ToLabel, ToAPIMilestone). Users come whole in the reply (collaboration's read model of
// identity's users), so presenting a page makes no further call.
import type { Caller } from '@anvil/kit';
import type { collaboration, identity } from '@anvil/proto';
import { secondsToTime } from './durations.js';
import { formatTime } from './time.js';
import { completeUser, presentUser } from './user.js';
import { repoUrls } from './repo-urls.js';

/** What an issue's JSON says about its repository (Gitea's RepositoryMeta). */
export interface IssueRepository {
  id: number;
  owner: string;
  name: string;
}

// Gitea's user_model.NewGhostUser: who a deleted poster shows as.
const GHOST: Partial<identity.User> = { id: -1, login: 'Ghost', full_name: '', visibility: 'VISIBILITY_PUBLIC' };

/**
 * An IssueList's issues with their users: the list sends each user once (collaboration.proto
 * IssueList) and the issues name them by id.
 */
export function issuesOf(list: collaboration.IssueList): collaboration.Issue[] {
  const users = new Map(list.users.map((u) => [Number(u.id), u]));
  const full = (ref: identity.User) => users.get(Number(ref.id)) ?? ref;
  return list.issues.map((issue) => ({ ...issue, user: issue.user ? full(issue.user) : issue.user, assignees: issue.assignees.map(full) }));
}

/** Users presented once per reply, by id: a page's issues mostly share a few users. */
export type ShownUsers = Map<number, ReturnType<typeof presentUser>>;

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

const optionalTime = (ts: collaboration.Issue['closed_at']) => (ts ? formatTime(ts) : null);

export function presentLabel(label: collaboration.Label, rootUrl: string, repo: IssueRepository) {
  const url = label.org_id
    ? `${rootUrl}api/v1/orgs/${encodeURIComponent(repo.owner)}/labels/${label.id}`
    : `${repoUrls(rootUrl, repo.owner, repo.name).api}/labels/${label.id}`;
  return {
    id: label.id, name: label.name, exclusive: label.exclusive, is_archived: label.is_archived,
    // Gitea stores "#rrggbb" and answers without the "#".
    color: label.color.replace(/^#/, ''), description: label.description, url,
  };
}

export function presentMilestone(m: collaboration.Milestone) {
  return {
    id: m.id, title: m.title, description: m.description, state: m.state, open_issues: m.open_issues, closed_issues: m.closed_issues,
    created_at: formatTime(m.created_at), updated_at: optionalTime(m.updated_at), closed_at: optionalTime(m.closed_at), due_on: optionalTime(m.due_on),
  };
}

/** Gitea's PullRequestMeta: what an issue that is a pull says of it (merged_at only once merged). */
function pullRequestMeta(issue: collaboration.Issue, htmlUrl: string) {
  const merged = issue.pull?.merged ?? false;
  return {
    merged,
    ...(merged && issue.pull?.merged_at ? { merged_at: formatTime(issue.pull.merged_at) } : {}),
    draft: isDraftTitle(issue.title),
    html_url: htmlUrl,
  };
}

export function presentIssue(issue: collaboration.Issue, repo: IssueRepository, caller: Caller, rootUrl: string, shown: ShownUsers = new Map()) {
  const urls = repoUrls(rootUrl, repo.owner, repo.name);
  const user = (u: Partial<identity.User>) => {
    const id = Number(u.id);
    let presented = shown.get(id);
    if (!presented) shown.set(id, (presented = presentUser(completeUser(u), caller, rootUrl)));
    return presented;
  };
  const assignees = issue.assignees.map(user);
  const kind = issue.is_pull ? 'pulls' : 'issues';
  return {
    id: issue.id,
    url: `${urls.api}/issues/${issue.index}`,
    html_url: `${urls.html}/${kind}/${issue.index}`,
    number: issue.index,
    user: user(issue.user ?? GHOST),
    original_author: '',
    original_author_id: 0,
    title: issue.title,
    body: issue.body,
    ref: issue.ref,
    assets: [],
    labels: issue.labels.map((l) => presentLabel(l, rootUrl, repo)),
    milestone: issue.milestone ? presentMilestone(issue.milestone) : null,
    // Gitea keeps the first assignee as `assignee` for older clients; none is null for both.
    assignee: assignees[0] ?? null,
    assignees: assignees.length ? assignees : null,
    state: issue.state,
    is_locked: issue.is_locked,
    comments: issue.comments,
    created_at: formatTime(issue.created_at),
    updated_at: formatTime(issue.updated_at),
    closed_at: optionalTime(issue.closed_at),
    due_date: optionalTime(issue.due_date),
    // Gitea 1.27 sets an estimate only through its web UI (no API option takes one) and Anvil
    // has no web UI: every issue's estimate is truthfully none.
    time_estimate: 0,
    pull_request: issue.is_pull ? pullRequestMeta(issue, `${urls.html}/pulls/${issue.index}`) : null,
    repository: { id: repo.id, name: repo.name, owner: repo.owner, full_name: `${repo.owner}/${repo.name}` },
    pin_order: issue.pin_order,
    content_version: issue.content_version,
  };
}

/** Gitea's ToAPIComment. */
export function presentComment(comment: collaboration.Comment, repo: IssueRepository, caller: Caller, rootUrl: string) {
  const urls = repoUrls(rootUrl, repo.owner, repo.name);
  const kind = comment.is_pull ? 'pulls' : 'issues';
  return {
    id: comment.id,
    html_url: `${urls.html}/${kind}/${comment.issue_index}#issuecomment-${comment.id}`,
    pull_request_url: comment.is_pull ? `${urls.html}/pulls/${comment.issue_index}` : '',
    issue_url: comment.is_pull ? '' : `${urls.html}/issues/${comment.issue_index}`,
    user: presentUser(completeUser(comment.user ?? GHOST), caller, rootUrl),
    original_author: '',
    original_author_id: 0,
    body: comment.body,
    assets: [],
    created_at: formatTime(comment.created_at),
    updated_at: formatTime(comment.updated_at),
  };
}

/** A user of collaboration's read model as Gitea's User JSON. */
export const presentIssueUser = (user: identity.User, caller: Caller, rootUrl: string) => presentUser(completeUser(user), caller, rootUrl);

/** Gitea's api.Reaction. */
export function presentReaction(reaction: collaboration.Reaction, caller: Caller, rootUrl: string) {
  return { user: presentUser(completeUser(reaction.user ?? GHOST), caller, rootUrl), content: reaction.content, created_at: formatTime(reaction.created_at) };
}

interface TimelineData {
  label?: collaboration.Label;
  milestone?: collaboration.Milestone | null;
  old_milestone?: collaboration.Milestone | null;
  assignee?: identity.User;
  removed_assignee?: boolean;
  old_title?: string;
  new_title?: string;
  old_ref?: string;
  new_ref?: string;
  /** add_time_manual and stop_tracking: the time the entry added. */
  tracked_time?: { id: number; user_id: number; time: number; created: string };
}

/** Time-tracking entries store "|<seconds>" (Gitea 1.21+); Gitea shows them as a duration. */
const TIME_ENTRY_TYPES = new Set(['add_time_manual', 'stop_tracking', 'delete_time_manual']);

/** Gitea's ToTimelineComment: a comment, or a recorded change with what it records. */
export function presentTimelineComment(comment: collaboration.Comment, repo: IssueRepository, caller: Caller, rootUrl: string) {
  const data = (comment.data_json ? JSON.parse(comment.data_json) : {}) as TimelineData;
  const { assets: _assets, original_author: _author, original_author_id: _authorId, ...base } = presentComment(comment, repo, caller, rootUrl);
  return {
    ...base,
    type: comment.type,
    label: data.label ? presentLabel(data.label, rootUrl, repo) : null,
    milestone: data.milestone ? presentMilestone(data.milestone) : null,
    old_milestone: data.old_milestone ? presentMilestone(data.old_milestone) : null,
    assignee: data.assignee ? presentUser(completeUser(data.assignee), caller, rootUrl) : null,
    removed_assignee: data.removed_assignee ?? false,
    old_title: data.old_title ?? '',
    new_title: data.new_title ?? '',
    old_ref: data.old_ref ?? '',
    new_ref: data.new_ref ?? '',
    ...(TIME_ENTRY_TYPES.has(comment.type) && base.body.startsWith('|') ? { body: secondsToTime(Number(base.body.slice(1)) || 0) } : {}),
    ...(data.tracked_time ? {
      tracked_time: {
        id: data.tracked_time.id, created: formatTime({ seconds: Math.floor(Date.parse(data.tracked_time.created) / 1000) }), time: data.tracked_time.time,
        user_id: data.tracked_time.user_id, user_name: base.user.login, issue_id: comment.issue_id,
      },
    } : {}),
  };
}
