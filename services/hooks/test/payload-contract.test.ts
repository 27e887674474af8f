// Every webhook payload kind against the contract (test/support/payload-contract.ts): its
// repository, users, commits, issue, comment and pull are the document's definitions, built
// by the same presenters as the API's, from events that carry what repository and
// collaboration publish (the repository's owner, the sender, a fork's parent, the
// permission Gitea's notifier shows).
import { describe, expect, it } from '@jest/globals';
import { checkPayload } from '../../../test/support/payload-contract.js';
import { HOOK_EVENT_KINDS, hookEventOf } from '../src/events/hook-event-kinds.js';

const ROOT = 'https://forge.example/';
const when = { seconds: 1_700_000_000, nanos: 0 };

/** A Repository message as the stream decodes it: every field present. */
function repositoryMessage(id: number, owner: { id: number; login: string }, name: string, forkId = 0) {
  return {
    id, owner_id: owner.id, owner_login: owner.login, name, description: 'An app', website: '', private: false, archived: false,
    archived_at: null, default_branch: 'main', empty: false, size: 12, object_format_name: 'sha1', template: false,
    has_issues: true, has_wiki: true, has_pull_requests: true, has_projects: true, has_releases: true, has_packages: true,
    has_actions: true, has_code: true, created_at: when, updated_at: when, language: 'Go',
    pull_request_settings: { allow_merge_commits: true, allow_squash_merge: true, default_merge_style: 'merge' },
    topics: ['cli'], branch_count: 2, licenses: ['MIT'],
    internal_tracker: { enable_time_tracker: true, allow_only_contributors_to_track_time: true, enable_issue_dependencies: true },
    num_watches: 1, status: 'ready', mirror: false, mirror_interval: '', mirror_updated_at: null, original_url: '',
    fork_id: forkId, num_forks: forkId ? 0 : 1, num_open_issues: 1, num_open_pulls: 1, num_stars: 2, avatar: '',
  };
}

/** An identity User message as the read models keep it. */
function userMessage(id: number, login: string, numStars = 0, type = 'user') {
  return {
    id, login, full_name: `${login} Lovelace`, email: `${login}@example.com`, is_admin: false, active: true, prohibit_login: false,
    restricted: false, location: 'London', website: '', description: '', visibility: 'VISIBILITY_PUBLIC', language: 'en-US',
    created_at: when, last_login: when, login_name: '', source_id: 0, max_repo_creation: -1, must_change_password: false,
    keep_email_private: false, allow_create_organization: true, allow_git_hook: false, allow_import_local: false, type, num_stars: numStars,
  };
}

const ada = userMessage(7, 'ada', 3);
const bob = userMessage(8, 'bob');
const app = repositoryMessage(3, ada, 'app');
const bobsFork = repositoryMessage(9, bob, 'app', 3);
const parentOfFork = { repository: app, owner: ada, permission: '' };
const commit = {
  id: 'c'.repeat(40), message: 'Fix the build', author: { name: 'Ada', email: 'ada@example.com', when },
  committer: { name: 'Ada', email: 'ada@example.com', when }, timestamp: when, added: ['b.txt'], removed: [], modified: ['a.txt'],
};
const label = { id: 11, name: 'bug', color: '#ee0701', description: '', exclusive: false, is_archived: false, repository_id: 3, org_id: 0 };
const milestone = { id: 5, title: 'v1', description: '', state: 'open', open_issues: 1, closed_issues: 0, created_at: when, updated_at: when };
const issue = (isPull = false) => ({
  id: 40, index: 4, repository_id: 3, user: ada, title: 'It breaks', body: 'Steps', state: 'open', is_locked: false, is_pull: isPull,
  labels: [label], milestone, assignees: [bob], comments: 1, created_at: when, updated_at: when, pin_order: 0, ref: '', content_version: 1,
});
const pull = () => ({
  issue: issue(true), base_branch: 'main', head_branch: 'fix', head_repo_id: 3, head_sha: 'a'.repeat(40), merge_base: 'b'.repeat(40),
  status: 'mergeable', conflicted_files: [], additions: 3, deletions: 1, changed_files: 2, has_merged: false, merge_commit_sha: '',
});
const comment = (isPull = false) => ({ id: 90, issue_id: 40, issue_index: 4, is_pull: isPull, user: bob, type: 'comment', body: 'Me too', created_at: when, updated_at: when });

const pushed = { repository: app, repository_owner: ada, sender: ada, pusher: { id: 7, login: 'ada' } };
const inFork = { repository: bobsFork, repository_owner: bob, repository_parent: parentOfFork, sender: bob, sender_permission: 'owner' };
const collaborating = { repository: app, repository_owner: ada, sender: bob, sender_permission: 'write' };

const EVENTS: Array<[subject: string, payload: object]> = [
  ['repository.push', { ...pushed, ref: 'refs/heads/main', before: 'b'.repeat(40), after: 'c'.repeat(40), commits: [commit], total_commits: 1 }],
  ['repository.branch.created', { ...pushed, name: 'fix', ref: 'refs/heads/fix', sha: 'c'.repeat(40) }],
  ['repository.tag.deleted', { ...pushed, name: 'v1', ref: 'refs/tags/v1', sha: 'c'.repeat(40) }],
  ['repository.repo.created', { repository: app, repository_owner: ada, sender: ada, actor_id: 7, actor: { id: 7, login: 'ada' } }],
  ['repository.repo.deleted', { repository: bobsFork, repository_owner: bob, repository_parent: parentOfFork, sender: bob, actor_id: 8, actor: { id: 8, login: 'bob' } }],
  ['repository.repo.forked', {
    repository: bobsFork, parent: app, repository_owner: bob, parent_owner: ada, sender: bob, actor_id: 8, actor: { id: 8, login: 'bob' },
    permission: 'owner', parent_permission: 'read',
  }],
  ['repository.status', { ...pushed, sha: 'c'.repeat(40), context: 'ci', state: 'success', target_url: '', description: 'ok', index: 1, creator: { id: 7, login: 'ada' }, created_at: when, commit }],
  ['collaboration.issue.opened', { ...collaborating, action: 'opened', issue: issue() }],
  ['collaboration.issue.label_updated', { ...inFork, action: 'label_updated', issue: issue(true), pull_request: pull(), changes: { title_from: 'Old' } }],
  ['collaboration.issue_comment.created', { ...collaborating, action: 'created', comment: comment(), issue: issue() }],
  ['collaboration.issue_comment.edited', { ...collaborating, action: 'edited', comment: comment(true), issue: issue(true), pull_request: pull(), changes: { body_from: 'Me' } }],
  ['collaboration.pull_request.opened', { ...inFork, action: 'opened', pull_request: pull() }],
  ['collaboration.pull_request.review_approved', { ...collaborating, action: 'review_approved', pull_request: pull(), review: { type: 'pull_request_review_approved', content: 'LGTM' } }],
  ['collaboration.pull_request.review_requested', { ...collaborating, action: 'review_requested', pull_request: pull(), requested_reviewer: ada }],
];

function fire(subject: string, payload: object) {
  const kind = HOOK_EVENT_KINDS[subject]!;
  return { event: hookEventOf(kind, payload)!, body: kind.build(payload, ROOT) as Record<string, any> };
}

describe('webhook payloads against the contract', () => {
  it.each(EVENTS)('%s makes a payload whose parts fit the contract\'s definitions', (subject, payload) => {
    const { event, body } = fire(subject, payload);
    expect(checkPayload(event, body)).toEqual([]);
  });

  it('the check fails a payload with a field Gitea\'s struct lacks or a part the definition refuses', () => {
    const { event, body } = fire(...EVENTS[0]!);
    const problems = checkPayload(event, { ...body, extra: 1, sender: { ...body.sender, id: 'seven' }, repository: { ...body.repository, bogus: true } });
    expect(problems).toEqual(expect.arrayContaining([
      expect.stringContaining('extra is no field'), expect.stringContaining('sender'), expect.stringContaining('repository'),
    ]));
    expect(problems).toHaveLength(3);
  });

  it('a payload\'s repository and users are the API\'s JSON: the owner and sender as identity describes them', () => {
    const { body } = fire(...EVENTS[0]!);
    expect(body.repository).toMatchObject({
      full_name: 'ada/app', stars_count: 2, open_issues_count: 1, topics: ['cli'], branch_count: 2, has_code: true,
      owner: { login: 'ada', full_name: 'ada Lovelace', location: 'London', starred_repos_count: 3, email: 'ada@noreply.forge.example' },
    });
    expect(body.sender).toMatchObject({ login: 'ada', full_name: 'ada Lovelace', starred_repos_count: 3, avatar_url: expect.stringMatching(/^https:\/\/forge\.example\/avatars\//) });
  });

  it('shows the permission Gitea\'s notifier chooses: the owner\'s for a push, none for a new ref, the sender\'s for an issue', () => {
    expect(fire(...EVENTS[0]!).body.repository.permissions).toEqual({ admin: true, push: true, pull: true });
    expect(fire(...EVENTS[1]!).body.repository.permissions).toEqual({ admin: false, push: false, pull: false });
    expect(fire(...EVENTS[7]!).body.repository.permissions).toEqual({ admin: false, push: true, pull: true });
  });

  it('a fork\'s repository shows its parent with its owner', () => {
    const opened = fire(...EVENTS[11]!).body;
    expect(opened.repository).toMatchObject({ full_name: 'bob/app', fork: true, parent: { full_name: 'ada/app', owner: { full_name: 'ada Lovelace' } } });
    const forked = fire(...EVENTS[5]!).body;
    expect(forked.forkee).toMatchObject({ full_name: 'ada/app', parent: null, permissions: { admin: false, push: false, pull: true } });
    expect(forked.repository).toMatchObject({ full_name: 'bob/app', parent: { full_name: 'ada/app' }, permissions: { admin: true } });
  });

  it('an event that names the sender by id and login only still makes a valid payload', () => {
    const { event, body } = fire('repository.push', { repository: app, ref: 'refs/heads/main', before: 'b'.repeat(40), after: 'c'.repeat(40), pusher: { id: 7, login: 'ada' }, commits: [], total_commits: 0 });
    expect(checkPayload(event, body)).toEqual([]);
    expect(body.sender).toMatchObject({ id: 7, login: 'ada', email: 'ada@noreply.forge.example' });
  });
});
