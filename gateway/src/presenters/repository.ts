// repository.RepositoryAccess (+ its owner from identity) → Gitea's Repository JSON
// (services/convert/repository.go innerToRepo). Fields Anvil does not track yet (stars,
// forks, issues, mirrors) carry Gitea's values for a repository without them.
import type { Caller } from '@anvil/kit';
import type { identity, repository } from '@anvil/proto';
import { formatTime } from './time.js';
import { hostOf, presentUser } from './user.js';

const MODES = ['none', 'read', 'write', 'admin', 'owner'];
const atLeast = (mode: string, wanted: string) => MODES.indexOf(mode) >= MODES.indexOf(wanted);

export function presentPermission(mode: string) {
  return { admin: atLeast(mode, 'admin'), push: atLeast(mode, 'write'), pull: atLeast(mode, 'read') };
}

export function presentRepository(access: repository.RepositoryAccess, owner: identity.User, caller: Caller, rootUrl: string) {
  const repo = access.repository!;
  const fullName = `${owner.login}/${repo.name}`;
  const host = hostOf(rootUrl);
  return {
    id: repo.id,
    owner: presentUser(owner, caller, rootUrl),
    name: repo.name,
    full_name: fullName,
    description: repo.description,
    empty: repo.empty,
    private: repo.private,
    fork: false,
    template: repo.is_template,
    mirror: false,
    size: repo.size,
    language: repo.language,
    languages_url: `${rootUrl}api/v1/repos/${fullName}/languages`,
    html_url: `${rootUrl}${fullName}`,
    url: `${rootUrl}api/v1/repos/${fullName}`,
    link: '',
    ssh_url: `git@${host}:${fullName}.git`,
    clone_url: `${rootUrl}${fullName}.git`,
    original_url: '',
    website: repo.website,
    stars_count: 0,
    forks_count: 0,
    watchers_count: 0,
    open_issues_count: 0,
    open_pr_counter: 0,
    release_counter: 0,
    default_branch: repo.default_branch,
    archived: repo.archived,
    created_at: formatTime(repo.created),
    updated_at: formatTime(repo.updated),
    // Gitea reports an unarchived repository's archived_at as the Unix epoch.
    archived_at: formatTime(repo.archived_at ?? { seconds: 0 }),
    permissions: presentPermission(access.permission),
    has_code: repo.has_code,
    has_issues: repo.has_issues,
    internal_tracker: repo.has_issues
      ? { enable_time_tracker: true, allow_only_contributors_to_track_time: true, enable_issue_dependencies: true }
      : undefined,
    has_wiki: repo.has_wiki,
    has_pull_requests: repo.has_pull_requests,
    has_projects: repo.has_projects,
    projects_mode: 'all',
    has_releases: repo.has_releases,
    has_packages: repo.has_packages,
    has_actions: repo.has_actions,
    ignore_whitespace_conflicts: false,
    allow_merge_commits: true,
    allow_rebase: true,
    allow_rebase_explicit: true,
    allow_squash_merge: true,
    allow_fast_forward_only_merge: true,
    allow_rebase_update: true,
    allow_manual_merge: false,
    autodetect_manual_merge: false,
    default_delete_branch_after_merge: false,
    default_merge_style: 'merge',
    default_update_style: 'merge',
    default_allow_maintainer_edit: false,
    default_target_branch: repo.default_branch,
    avatar_url: '',
    internal: false,
    mirror_interval: '',
    object_format_name: repo.object_format_name,
    mirror_updated: formatTime(null),
    topics: [] as string[],
    licenses: [] as string[],
    branch_count: 0,
  };
}
