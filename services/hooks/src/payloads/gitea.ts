// Gitea's webhook payloads (modules/structs/hook.go: PushPayload, CreatePayload,
// DeletePayload, RepositoryPayload, CommitStatusPayload), built from the events the
// repository service publishes. The events carry users as id and login only, so users here
// have Gitea's shape with what the event knows (e-mail and avatar are left empty).
import { cloneUrls, repoUrls } from '@anvil/kit';
import { formatTime, type repository as pb } from '@anvil/proto';

const ZERO_SHA = /^0+$/;

export { formatTime } from '@anvil/proto';

export function payloadUser(user: { id: number; login: string } | null | undefined, rootUrl: string) {
  const login = user?.login ?? '';
  return {
    id: Number(user?.id ?? 0), login, login_name: '', source_id: 0, full_name: '', email: '', avatar_url: '',
    html_url: `${rootUrl}${encodeURIComponent(login)}`, language: '', is_admin: false, last_login: formatTime(null),
    created: formatTime(null), restricted: false, active: false, prohibit_login: false, location: '', website: '',
    description: '', visibility: 'public', followers_count: 0, following_count: 0, starred_repos_count: 0, username: login,
  };
}

export function payloadRepository(repo: pb.Repository, rootUrl: string) {
  const fullName = `${repo.owner_login}/${repo.name}`;
  const urls = repoUrls(rootUrl, repo.owner_login, repo.name);
  const clone = cloneUrls(rootUrl, repo.owner_login, repo.name);
  return {
    id: Number(repo.id),
    owner: payloadUser({ id: Number(repo.owner_id), login: repo.owner_login }, rootUrl),
    name: repo.name, full_name: fullName, description: repo.description, empty: repo.empty, private: repo.private,
    fork: Number(repo.fork_id ?? 0) > 0, template: repo.template, parent: null as Record<string, unknown> | null, mirror: false, size: Number(repo.size), language: repo.language,
    languages_url: `${urls.api}/languages`, html_url: urls.html,
    url: urls.api, link: '', ssh_url: clone.ssh,
    clone_url: clone.https, original_url: '', website: repo.website, stars_count: 0, forks_count: Number(repo.num_forks ?? 0),
    watchers_count: 0, open_issues_count: 0, open_pr_counter: 0, release_counter: 0, default_branch: repo.default_branch,
    archived: repo.archived, created_at: formatTime(repo.created_at), updated_at: formatTime(repo.updated_at),
    archived_at: formatTime(repo.archived_at ?? { seconds: 0 }), has_issues: repo.has_issues, has_wiki: repo.has_wiki,
    has_pull_requests: repo.has_pull_requests, has_projects: repo.has_projects, has_releases: repo.has_releases,
    has_packages: repo.has_packages, has_actions: repo.has_actions, internal: false, mirror_interval: '',
    // Gitea reports the built-in tracker's settings while the issues unit is on.
    internal_tracker: repo.has_issues ? {
      enable_time_tracker: repo.internal_tracker?.enable_time_tracker ?? true,
      allow_only_contributors_to_track_time: repo.internal_tracker?.allow_only_contributors_to_track_time ?? true,
      enable_issue_dependencies: repo.internal_tracker?.enable_issue_dependencies ?? true,
    } : undefined,
    object_format_name: repo.object_format_name || 'sha1',
  };
}

function payloadCommit(commit: pb.PushCommit, repo: pb.Repository, rootUrl: string) {
  const identity = (who: pb.CommitIdentity | null) => ({ name: who?.name ?? '', email: who?.email ?? '', username: '' });
  return {
    id: commit.id, message: commit.message, url: `${repoUrls(rootUrl, repo.owner_login, repo.name).html}/commit/${commit.id}`,
    author: identity(commit.author), committer: identity(commit.committer), verification: null,
    timestamp: formatTime(commit.timestamp), added: commit.added, removed: commit.removed, modified: commit.modified,
  };
}

/** `refs/heads/main` → `main`, `refs/tags/v1` → `v1`. */
export const shortRef = (ref: string) => ref.replace(/^refs\/(heads|tags)\//, '');

/** Gitea's PushPayload; compare_url only when there is a range to compare. */
export function pushPayload(push: pb.Push, rootUrl: string) {
  const repo = push.repository!;
  const commits = push.commits.map((c) => payloadCommit(c, repo, rootUrl));
  const pusher = payloadUser(push.pusher, rootUrl);
  const compare = !ZERO_SHA.test(push.before) && !ZERO_SHA.test(push.after) && push.before !== push.after && commits.length > 0;
  return {
    ref: push.ref, before: push.before, after: push.after,
    compare_url: compare ? `${repoUrls(rootUrl, repo.owner_login, repo.name).html}/compare/${push.before}...${push.after}` : '',
    commits, total_commits: Number(push.total_commits), head_commit: commits[0] ?? null,
    repository: payloadRepository(repo, rootUrl), pusher, sender: pusher,
  };
}

const refType = (ref: string) => (ref.startsWith('refs/tags/') ? 'tag' : 'branch');

/** Gitea's CreatePayload: the short ref name and its type. */
export function createPayload(change: pb.RefChanged, rootUrl: string) {
  return {
    sha: change.sha, ref: change.name, ref_type: refType(change.ref),
    repository: payloadRepository(change.repository!, rootUrl), sender: payloadUser(change.pusher, rootUrl),
  };
}

/** Gitea's DeletePayload. */
export function deletePayload(change: pb.RefChanged, rootUrl: string) {
  return {
    ref: change.name, ref_type: refType(change.ref), pusher_type: 'user',
    repository: payloadRepository(change.repository!, rootUrl), sender: payloadUser(change.pusher, rootUrl),
  };
}

/** Gitea's RepositoryPayload (created or deleted); `organization` is the owner. */
export function repositoryPayload(action: 'created' | 'deleted', event: pb.RepositoryCreated, rootUrl: string) {
  const repo = event.repository!;
  return {
    action, repository: payloadRepository(repo, rootUrl),
    organization: payloadUser({ id: Number(repo.owner_id), login: repo.owner_login }, rootUrl),
    sender: payloadUser(event.actor ?? { id: Number(event.actor_id), login: '' }, rootUrl),
  };
}

/**
 * Gitea's ForkPayload, sent to the parent's hooks: `forkee` is the repository that was forked
 * (the parent: Gitea's notifier passes it so) and `repository` the new fork, its parent set.
 */
export function forkPayload(event: pb.RepositoryForked, rootUrl: string) {
  const parent = payloadRepository(event.parent!, rootUrl);
  return {
    forkee: parent,
    repository: { ...payloadRepository(event.repository!, rootUrl), parent },
    sender: payloadUser(event.actor ?? { id: Number(event.actor_id), login: '' }, rootUrl),
  };
}

/** Gitea's CommitStatusPayload. */
export function statusPayload(status: pb.CommitStatusCreated, rootUrl: string) {
  const repo = status.repository!;
  return {
    id: Number(status.index), sha: status.sha, state: status.state, target_url: status.target_url,
    description: status.description, context: status.context,
    commit: status.commit ? payloadCommit(status.commit, repo, rootUrl) : null,
    repository: payloadRepository(repo, rootUrl), sender: payloadUser(status.creator, rootUrl),
    created_at: formatTime(status.created_at), updated_at: formatTime(status.created_at),
  };
}
