// repository.RepositoryAccess (+ its owner from identity) → Gitea's Repository JSON
// (services/convert/repository.go innerToRepo). Every field Gitea computes is computed from
// what the repository service stores: watchers_count from its num_watches, open_issues_count
// and open_pr_counter from the counts collaboration announces, stars_count from its stars,
// forks_count from its num_forks, branch_count from its refs table. The counter of a feature
// Anvil has not built (releases) carries Gitea's value for a repository without them.
import type { Caller } from '@anvil/kit';
import type { identity, repository } from '@anvil/proto';
import { formatTime } from './time.js';
import { presentPermission } from './access-mode.js';
import { cloneUrls, repoUrls } from './repo-urls.js';
import { presentUser, visibilityName } from './user.js';

/**
 * The pull request settings as Gitea reports them: stored values while the unit is on,
 * Gitea's zero values (every merge style refused, `merge` by default) while it is off.
 */
function pullRequestSettingsOf(repo: repository.Repository) {
  const stored = repo.has_pull_requests ? repo.pull_request_settings : undefined;
  return {
    ignore_whitespace_conflicts: stored?.ignore_whitespace_conflicts ?? false,
    allow_merge_commits: stored?.allow_merge_commits ?? false,
    allow_rebase: stored?.allow_rebase ?? false,
    allow_rebase_explicit: stored?.allow_rebase_explicit ?? false,
    allow_squash_merge: stored?.allow_squash_merge ?? false,
    allow_fast_forward_only_merge: stored?.allow_fast_forward_only_merge ?? false,
    allow_manual_merge: stored?.allow_manual_merge ?? false,
    autodetect_manual_merge: stored?.autodetect_manual_merge ?? false,
    allow_rebase_update: stored?.allow_rebase_update ?? false,
    allow_merge_update: stored?.allow_merge_update ?? false,
    default_delete_branch_after_merge: stored?.default_delete_branch_after_merge ?? false,
    default_merge_style: stored?.default_merge_style || 'merge',
    default_update_style: stored?.default_update_style || 'merge',
    default_allow_maintainer_edit: stored?.default_allow_maintainer_edit ?? false,
  };
}

export function presentRepository(access: repository.RepositoryAccess, owner: identity.User, caller: Caller, rootUrl: string): Record<string, unknown> & ReturnType<typeof presentFields> {
  const presented = presentFields(access, owner, caller, rootUrl);
  // A fork's parent as Gitea's innerToRepo shows it: one level deep (the parent's own parent
  // is left out), with the fork's permission; null when it is no fork or its parent is gone.
  const parent = access.parent?.repository && access.parent.owner ? presentFields(access.parent, access.parent.owner, caller, rootUrl) : null;
  return { ...presented, parent };
}

function presentFields(access: repository.RepositoryAccess, owner: identity.User, caller: Caller, rootUrl: string) {
  const repo = access.repository!;
  const fullName = `${owner.login}/${repo.name}`;
  const urls = repoUrls(rootUrl, owner.login, repo.name);
  const clone = cloneUrls(rootUrl, owner.login, repo.name);
  return {
    id: repo.id,
    owner: presentUser(owner, caller, rootUrl),
    name: repo.name,
    full_name: fullName,
    description: repo.description,
    empty: repo.empty,
    private: repo.private,
    fork: Number(repo.fork_id ?? 0) > 0,
    template: repo.template,
    mirror: repo.mirror ?? false,
    size: repo.size,
    language: repo.language,
    languages_url: `${urls.api}/languages`,
    html_url: urls.html,
    url: urls.api,
    link: '',
    ssh_url: clone.ssh,
    clone_url: clone.https,
    original_url: repo.original_url ?? '',
    website: repo.website,
    stars_count: repo.num_stars ?? 0,
    forks_count: Number(repo.num_forks ?? 0),
    watchers_count: repo.num_watches,
    open_issues_count: repo.num_open_issues ?? 0,
    open_pr_counter: repo.num_open_pulls ?? 0,
    // Releases are not built: no repository has any yet (Gitea's NumReleases counts them).
    release_counter: 0,
    default_branch: repo.default_branch,
    archived: repo.archived,
    created_at: formatTime(repo.created_at),
    updated_at: formatTime(repo.updated_at),
    // Gitea reports an unarchived repository's archived_at as the Unix epoch.
    archived_at: formatTime(repo.archived_at ?? { seconds: 0 }),
    permissions: presentPermission(access.permission),
    has_code: repo.has_code,
    has_issues: repo.has_issues,
    // Gitea reports the built-in tracker's settings while the issues unit is on.
    internal_tracker: repo.has_issues
      ? {
        enable_time_tracker: repo.internal_tracker?.enable_time_tracker ?? true,
        allow_only_contributors_to_track_time: repo.internal_tracker?.allow_only_contributors_to_track_time ?? true,
        enable_issue_dependencies: repo.internal_tracker?.enable_issue_dependencies ?? true,
      }
      : undefined,
    // Units Anvil has not built are not advertised, whatever is stored for them (the stored
    // setting shows once the unit exists): a client would link to pages that 404.
    has_wiki: false,
    has_pull_requests: repo.has_pull_requests,
    has_projects: false,
    projects_mode: 'all',
    has_releases: false,
    has_packages: false,
    has_actions: false,
    ...pullRequestSettingsOf(repo),
    default_target_branch: repo.default_branch,
    // Gitea's AvatarLink: the uploaded avatar under /repo-avatars/, else nothing ([picture]
    // REPOSITORY_AVATAR_FALLBACK = none).
    avatar_url: repo.avatar ? `${rootUrl}repo-avatars/${encodeURIComponent(repo.avatar)}` : '',
    // Gitea: a public repository of a private owner is "internal".
    internal: !repo.private && visibilityName(owner.visibility) === 'private',
    mirror_interval: repo.mirror_interval ?? '',
    object_format_name: repo.object_format_name,
    // Gitea reports the zero time for a repository that is no mirror.
    mirror_updated: formatTime(repo.mirror_updated_at ?? null),
    topics: repo.topics ?? [],
    licenses: repo.licenses ?? [],
    branch_count: repo.branch_count ?? 0,
  };
}
