// Branch and content rules (docs/branches-and-contents-checklist.md) that other suites leave unproven —
// branch fields as each caller sees them, POST /branches errors, renames under protection,
// team whitelists, unprotected file patterns, rule priority, signed commits on contents
// writes, token scopes, private repositories on every route, and `push` for every write.
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { Accounts, TestUser } from '../support/accounts.js';
import { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e } from '../support/e2e.js';
import type { EventRecorder } from '../support/event-recorder.js';
import { cloneUrl, gitIn } from '../support/git-cli.js';
import type { RunningSystem } from '../support/system.js';

jest.setTimeout(180_000);

let e2e: E2e;
let system: RunningSystem;
let anonymous: ApiClient;
let admin: ApiClient;
let users: Accounts;
let home: string;
let recorder: EventRecorder;
const git = (args: string[], cwd = home) => gitIn(home, args, cwd);
const b64 = (text: string) => Buffer.from(text).toString('base64');

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'i5-user', gitHome: true, events: 'repository' });
  ({ system, anonymous, admin, users, home, recorder } = e2e);
}, 180_000);

afterAll(() => e2e?.close());

type User = TestUser & { token: string };

const newUser = () => e2e.newWriter({ scopes: ['write:repository', 'write:organization'] });

async function grant(owner: User, base: string, who: User, permission: 'read' | 'write' | 'admin'): Promise<void> {
  expect((await owner.client.put(`${base}/collaborators/${who.username}`, { permission })).status).toBe(204);
}

async function protect(owner: User, base: string, rule: Record<string, unknown>) {
  const res = await owner.client.post(`${base}/branch_protections`, rule);
  expect(res.status).toBe(201);
  return res.body;
}

/** A clone of `path` in which `user` pushes. */
async function cloneAs(user: User, path: string): Promise<string> {
  const dir = await mkdtemp(join(home, 'work-'));
  const cloned = await git(['clone', '-q', cloneUrl(system.baseUrl, `${path}.git`, user.username, user.token), 'work'], dir);
  expect(cloned.code).toBe(0);
  return join(dir, 'work');
}

async function commitFile(work: string, file: string, content: string): Promise<void> {
  await mkdir(join(work, file, '..'), { recursive: true });
  await writeFile(join(work, file), content);
  expect((await git(['add', file], work)).code).toBe(0);
  expect((await git(['-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', `change ${file}`], work)).code).toBe(0);
}

describe('branches as each caller sees them', () => {
  test('protection fields, and user_can_push/user_can_merge computed for owner, whitelisted, other writers, readers and anonymous', async () => {
    const owner = await newUser();
    const [pusher, writer, reader] = [await newUser(), await newUser(), await newUser()];
    expect((await owner.client.post('/user/repos', { name: 'fields', auto_init: true })).status).toBe(201);
    const base = `/repos/${owner.username}/fields`;
    await grant(owner, base, pusher, 'write');
    await grant(owner, base, writer, 'write');
    await grant(owner, base, reader, 'read');
    expect((await owner.client.post(`${base}/branches`, { new_branch_name: 'dev' })).status).toBe(201);
    await protect(owner, base, {
      rule_name: 'main', enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: [pusher.username],
      enable_merge_whitelist: true, merge_whitelist_usernames: [owner.username],
      enable_status_check: true, status_check_contexts: ['ci/*'], required_approvals: 2,
    });

    const list = await owner.client.get(`${base}/branches`);
    expect(list.body.map((b: { name: string }) => b.name)).toEqual(['dev', 'main']);
    expect(list.body[1]).toMatchObject({
      protected: true, required_approvals: 2, enable_status_check: true, status_check_contexts: ['ci/*'], effective_branch_protection_name: 'main',
    });
    expect(list.body[0]).toMatchObject({ protected: false, required_approvals: 0, enable_status_check: false, status_check_contexts: [], effective_branch_protection_name: '' });

    const flags = async (client: ApiClient, branch: string) => {
      const res = await client.get(`${base}/branches/${branch}`);
      expect(res.status).toBe(200);
      return [res.body.user_can_push, res.body.user_can_merge];
    };
    // Gitea's CanUserPush: with a whitelist, only those on it push (the owner too is held to it).
    expect(await flags(owner.client, 'main')).toEqual([false, true]);
    expect(await flags(pusher.client, 'main')).toEqual([true, false]);
    expect(await flags(writer.client, 'main')).toEqual([false, false]);
    expect(await flags(reader.client, 'main')).toEqual([false, false]);
    expect(await flags(anonymous, 'main')).toEqual([false, false]);
    expect(await flags(writer.client, 'dev')).toEqual([true, true]);
    expect(await flags(reader.client, 'dev')).toEqual([false, false]);
    // The list computes the same flags for its caller.
    const asPusher = await pusher.client.get(`${base}/branches`);
    expect(asPusher.body.map((b: { user_can_push: boolean }) => b.user_can_push)).toEqual([true, true]);
  });
});

describe('creating, renaming and moving branches', () => {
  test('POST /branches: an empty repository, a missing old branch, an existing new branch, a reader, and a name a rule protects', async () => {
    const owner = await newUser();
    const reader = await newUser();
    expect((await owner.client.post('/user/repos', { name: 'hollow' })).status).toBe(201);
    const empty = await owner.client.post(`/repos/${owner.username}/hollow/branches`, { new_branch_name: 'x', old_branch_name: 'main' });
    expect([empty.status, empty.body.message]).toEqual([404, 'Git Repository is empty.']);

    expect((await owner.client.post('/user/repos', { name: 'maker', auto_init: true })).status).toBe(201);
    const base = `/repos/${owner.username}/maker`;
    const missing = await owner.client.post(`${base}/branches`, { new_branch_name: 'x', old_branch_name: 'nope' });
    expect([missing.status, missing.body.message]).toEqual([404, 'The old branch does not exist']);
    const again = await owner.client.post(`${base}/branches`, { new_branch_name: 'main', old_branch_name: 'main' });
    expect([again.status, again.body.message]).toEqual([409, 'The branch already exists.']);
    await grant(owner, base, reader, 'read');
    expect((await reader.client.post(`${base}/branches`, { new_branch_name: 'r' })).status).toBe(403);

    // Creating a branch is a push of it: a rule that forbids pushes refuses it, as the hook would.
    await protect(owner, base, { rule_name: 'release/*' });
    const refused = await owner.client.post(`${base}/branches`, { new_branch_name: 'release/1' });
    expect([refused.status, refused.body.message]).toEqual([403, 'Not allowed to push to protected branch release/1']);
    expect((await owner.client.get(`${base}/branches/release%2F1`)).status).toBe(404);
  });

  test('PATCH /branches renames only what no rule protects; the default branch needs an admin; clashes are 422', async () => {
    const owner = await newUser();
    const writer = await newUser();
    expect((await owner.client.post('/user/repos', { name: 'renamer', auto_init: true })).status).toBe(201);
    const base = `/repos/${owner.username}/renamer`;
    await grant(owner, base, writer, 'write');
    for (const name of ['kept', 'free', 'other']) expect((await owner.client.post(`${base}/branches`, { new_branch_name: name })).status).toBe(201);
    await protect(owner, base, { rule_name: 'kept' });
    await protect(owner, base, { rule_name: 'locked/*' });

    expect((await owner.client.patch(`${base}/branches/kept`, { name: 'unkept' })).status).toBe(403);
    expect((await owner.client.patch(`${base}/branches/free`, { name: 'locked/free' })).status).toBe(403);
    expect((await writer.client.patch(`${base}/branches/main`, { name: 'trunk' })).status).toBe(403);
    expect((await owner.client.patch(`${base}/branches/free`, { name: 'other' })).status).toBe(422);
    expect((await owner.client.patch(`${base}/branches/nope`, { name: 'x' })).status).toBe(404);
    expect((await writer.client.patch(`${base}/branches/free`, { name: 'freed' })).status).toBe(204);

    expect((await owner.client.patch(`${base}/branches/main`, { name: 'trunk' })).status).toBe(204);
    expect((await owner.client.get(base)).body.default_branch).toBe('trunk');
  });
});

describe('one protection check on every write path', () => {
  test('a team whitelist, named in any case, lets its members push and commit through the API; other org writers are refused', async () => {
    const owner = await newUser();
    const [member, outsider] = [await newUser(), await newUser()];
    const org = users.unique('i5-org');
    expect((await owner.client.post('/orgs', { username: org })).status).toBe(201);
    await users.eventually(() => owner.client.get(`/orgs/${org}/repos`), 200);
    expect((await owner.client.post(`/orgs/${org}/repos`, { name: 'app', auto_init: true, private: true })).status).toBe(201);
    const base = `/repos/${org}/app`;
    const teamOf = async (name: string, who: User) => {
      const team = await owner.client.post(`/orgs/${org}/teams`, { name, permission: 'write', units: ['repo.code'] });
      expect(team.status).toBe(201);
      expect((await owner.client.put(`/teams/${team.body.id}/members/${who.username}`)).status).toBe(204);
      expect((await owner.client.put(`/teams/${team.body.id}/repos/${org}/app`)).status).toBe(204);
    };
    await teamOf('Devs', member);
    await teamOf('others', outsider);
    await users.eventually(() => member.client.get(base), 200);
    await users.eventually(() => outsider.client.get(base), 200);

    const unknown = await owner.client.post(`${base}/branch_protections`, { rule_name: 'main', enable_push: true, enable_push_whitelist: true, push_whitelist_teams: ['nobody'] });
    expect(unknown.status).toBe(422);
    const rule = await protect(owner, base, { rule_name: 'main', enable_push: true, enable_push_whitelist: true, push_whitelist_teams: ['devs'] });
    expect(rule.push_whitelist_teams).toEqual(['Devs']);

    expect((await member.client.get(`${base}/branches/main`)).body.user_can_push).toBe(true);
    expect((await outsider.client.get(`${base}/branches/main`)).body.user_can_push).toBe(false);

    const work = await cloneAs(member, `${org}/app`);
    await commitFile(work, 'member.txt', 'm\n');
    const pushed = await git(['push', '-q', 'origin', 'HEAD:main'], work);
    expect([pushed.code, pushed.stderr]).toEqual([0, '']);
    expect((await member.client.post(`${base}/contents/api.txt`, { content: b64('a') })).status).toBe(201);

    const theirs = await cloneAs(outsider, `${org}/app`);
    await commitFile(theirs, 'outsider.txt', 'o\n');
    const refused = await git(['push', 'origin', 'HEAD:main'], theirs);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('Not allowed to push to protected branch main');
    const api = await outsider.client.post(`${base}/contents/outsider.txt`, { content: b64('o') });
    expect([api.status, api.body.message]).toEqual([403, `user cannot commit to repo [user: ${outsider.username.toLowerCase()}]`]);
  });

  test('unprotected file patterns let anyone with write access change only those files, by push and by the API', async () => {
    const owner = await newUser();
    expect((await owner.client.post('/user/repos', { name: 'docs', auto_init: true })).status).toBe(201);
    const base = `/repos/${owner.username}/docs`;
    await protect(owner, base, { rule_name: 'main', enable_push: false, unprotected_file_patterns: 'docs/**;*.md' });
    const work = await cloneAs(owner, `${owner.username}/docs`);

    await commitFile(work, 'docs/guide/intro.txt', 'intro\n');
    expect((await git(['push', '-q', 'origin', 'HEAD:main'], work)).code).toBe(0);
    await commitFile(work, 'src/main.ts', 'code\n');
    const refused = await git(['push', 'origin', 'HEAD:main'], work);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('Not allowed to push to protected branch main');

    expect((await owner.client.post(`${base}/contents/docs/api.txt`, { content: b64('api') })).status).toBe(201);
    expect((await owner.client.post(`${base}/contents/NOTES.md`, { content: b64('notes') })).status).toBe(201);
    expect((await owner.client.post(`${base}/contents/src/api.ts`, { content: b64('x') })).status).toBe(403);
    expect((await owner.client.post(`${base}/contents`, { files: [
      { operation: 'create', path: 'docs/ok.txt', content: b64('ok') }, { operation: 'create', path: 'src/no.ts', content: b64('no') },
    ] })).status).toBe(403);
  });

  test('rules are tried in priority order, and changing a priority changes which one governs a branch', async () => {
    const owner = await newUser();
    expect((await owner.client.post('/user/repos', { name: 'ordered', auto_init: true })).status).toBe(201);
    const base = `/repos/${owner.username}/ordered`;
    expect((await owner.client.post(`${base}/branches`, { new_branch_name: 'rel/v1' })).status).toBe(201);
    // Gitea's BranchProtection JSON carries no id, so clients order rules by their priority field.
    expect((await protect(owner, base, { rule_name: 'rel/*', enable_push: true, priority: 2 })).priority).toBe(2);
    expect((await protect(owner, base, { rule_name: '*/v1', enable_push: false, priority: 3 })).priority).toBe(3);
    const effective = async () => (await owner.client.get(`${base}/branches/rel%2Fv1`)).body;
    expect(await effective()).toMatchObject({ effective_branch_protection_name: 'rel/*', user_can_push: true });
    expect((await owner.client.post(`${base}/contents/a.txt`, { content: b64('a'), branch: 'rel/v1' })).status).toBe(201);

    expect((await owner.client.patch(`${base}/branch_protections/*%2Fv1`, { priority: 1 })).body.priority).toBe(1);
    expect(await effective()).toMatchObject({ effective_branch_protection_name: '*/v1', user_can_push: false });
    expect((await owner.client.post(`${base}/contents/b.txt`, { content: b64('b'), branch: 'rel/v1' })).status).toBe(403);
    const work = await cloneAs(owner, `${owner.username}/ordered`);
    expect((await git(['checkout', '-q', 'rel/v1'], work)).code).toBe(0);
    await commitFile(work, 'c.txt', 'c\n');
    const refused = await git(['push', 'origin', 'HEAD:rel/v1'], work);
    expect(refused.stderr).toContain('Not allowed to push to protected branch rel/v1');
  });

  test('require_signed_commits refuses the unsigned commits the contents API writes, with Gitea\'s message', async () => {
    const owner = await newUser();
    expect((await owner.client.post('/user/repos', { name: 'signed', auto_init: true })).status).toBe(201);
    const base = `/repos/${owner.username}/signed`;
    await protect(owner, base, { rule_name: 'main', enable_push: true, require_signed_commits: true });
    const head = (await owner.client.get(`${base}/branches/main`)).body.commit.id;
    const refused = await owner.client.post(`${base}/contents/a.txt`, { content: b64('a') });
    expect([refused.status, refused.body.message]).toEqual([403, `user cannot commit to repo [user: ${owner.username.toLowerCase()}]`]);
    expect((await owner.client.get(`${base}/branches/main`)).body.commit.id).toBe(head);
    // Another branch is not governed by the rule.
    expect((await owner.client.post(`${base}/contents/a.txt`, { content: b64('a'), new_branch: 'draft' })).status).toBe(201);
  });
});

describe('force pushes and protected files on git push', () => {
  test('the force-push allowlist lets its users rewrite a protected branch; protected files stay refused even for whitelisted pushers', async () => {
    const owner = await newUser();
    const writer = await newUser();
    expect((await owner.client.post('/user/repos', { name: 'rewrite', auto_init: true })).status).toBe(201);
    const base = `/repos/${owner.username}/rewrite`;
    await grant(owner, base, writer, 'write');
    await protect(owner, base, {
      rule_name: 'main', enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: [owner.username, writer.username],
      enable_force_push: true, enable_force_push_allowlist: true, force_push_allowlist_usernames: [owner.username], protected_file_patterns: 'ci/*.yml',
    });
    const theirs = await cloneAs(writer, `${owner.username}/rewrite`);
    await commitFile(theirs, 'w.txt', 'w\n');
    expect((await git(['push', '-q', 'origin', 'HEAD:main'], theirs)).code).toBe(0);
    expect((await git(['reset', '-q', '--hard', 'HEAD~1'], theirs)).code).toBe(0);
    await commitFile(theirs, 'other.txt', 'o\n');
    const refused = await git(['push', '--force', 'origin', 'HEAD:main'], theirs);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('branch main is protected from force push');

    const mine = await cloneAs(owner, `${owner.username}/rewrite`);
    expect((await git(['reset', '-q', '--hard', 'HEAD~1'], mine)).code).toBe(0);
    await commitFile(mine, 'rewritten.txt', 'r\n');
    const forced = await git(['push', '--force', 'origin', 'HEAD:main'], mine);
    expect([forced.code, forced.stderr]).toEqual([0, expect.stringContaining('forced update')]);

    await commitFile(mine, 'ci/build.yml', 'on: push\n');
    const touched = await git(['push', 'origin', 'HEAD:main'], mine);
    expect(touched.code).not.toBe(0);
    expect(touched.stderr).toContain('branch main is protected from changing file ci/build.yml');
  });
});

describe('branch protection rules', () => {
  test('every field of the contract is kept and read back; an archived repository\'s rules and branches are locked (423)', async () => {
    const owner = await newUser();
    const helper = await newUser();
    expect((await owner.client.post('/user/repos', { name: 'allfields', auto_init: true })).status).toBe(201);
    const base = `/repos/${owner.username}/allfields`;
    await grant(owner, base, helper, 'write');
    const fields = {
      rule_name: 'release/**', enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: [helper.username],
      push_whitelist_deploy_keys: true, enable_force_push: true, enable_force_push_allowlist: true, force_push_allowlist_usernames: [owner.username],
      enable_merge_whitelist: true, merge_whitelist_usernames: [owner.username], enable_status_check: true, status_check_contexts: ['ci', 'lint/*'],
      required_approvals: 3, enable_approvals_whitelist: true, approvals_whitelist_username: [helper.username],
      block_on_rejected_reviews: true, block_on_official_review_requests: true, block_on_outdated_branch: true,
      dismiss_stale_approvals: true, ignore_stale_approvals: true, require_signed_commits: true,
      protected_file_patterns: '*.lock', unprotected_file_patterns: 'docs/**', block_admin_merge_override: true,
    };
    const made = await protect(owner, base, fields);
    const { rule_name: _name, ...kept } = fields;
    expect(made).toMatchObject({ ...kept, rule_name: 'release/**', branch_name: '' });
    expect((await owner.client.get(`${base}/branch_protections/release%2F**`)).body).toMatchObject(kept);

    expect((await owner.client.post(`${base}/branches`, { new_branch_name: 'topic' })).status).toBe(201);
    expect((await owner.client.patch(base, { archived: true })).status).toBe(200);
    expect((await owner.client.post(`${base}/branch_protections`, { rule_name: 'main' })).status).toBe(423);
    expect((await owner.client.patch(`${base}/branch_protections/release%2F**`, { required_approvals: 1 })).status).toBe(423);
    expect((await owner.client.undeclared('DELETE', `${base}/branch_protections/release%2F**`)).status).toBe(423);
    expect((await owner.client.post(`${base}/branches`, { new_branch_name: 'x' })).status).toBe(423);
    expect((await owner.client.delete(`${base}/branches/topic`)).status).toBe(423);
    expect((await owner.client.undeclared('PATCH', `${base}/branches/topic`, { name: 'y' })).status).toBe(423);
    expect((await owner.client.get(`${base}/branch_protections/release%2F**`)).body.required_approvals).toBe(3);
    expect((await owner.client.get(`${base}/branches/topic`)).status).toBe(200);
  });
});

describe('contents writes', () => {
  test('update and delete on a branch that does not exist are 404; every write publishes push with its commit', async () => {
    const owner = await newUser();
    expect((await owner.client.post('/user/repos', { name: 'pushes', auto_init: true })).status).toBe(201);
    const base = `/repos/${owner.username}/pushes`;
    const repoId = (await owner.client.get(base)).body.id;
    const readme = (await owner.client.get(`${base}/contents/README.md`)).body;
    expect((await owner.client.put(`${base}/contents/README.md`, { content: b64('x'), sha: readme.sha, branch: 'nope' })).status).toBe(404);
    expect((await owner.client.delete(`${base}/contents/README.md`, { sha: readme.sha, branch: 'nope' })).status).toBe(404);

    const updated = await owner.client.put(`${base}/contents/README.md`, { content: b64('# new\n'), sha: readme.sha });
    expect(updated.status).toBe(200);
    const multi = await owner.client.post(`${base}/contents`, { files: [{ operation: 'create', path: 'a.txt', content: b64('a') }] });
    expect(multi.status).toBe(201);
    const deleted = await owner.client.delete(`${base}/contents/a.txt`, { sha: multi.body.files[0].sha });
    expect(deleted.status).toBe(200);
    const pushOf = (sha: string) => recorder.eventMatching((e) => e.subject === 'repository.push' && e.payload.repository?.id === repoId && e.payload.after === sha);
    expect((await pushOf(updated.body.commit.sha)).payload.commits[0]).toMatchObject({ modified: ['README.md'] });
    expect((await pushOf(multi.body.commit.sha)).payload.commits[0]).toMatchObject({ added: ['a.txt'] });
    expect((await pushOf(deleted.body.commit.sha)).payload.commits[0]).toMatchObject({ removed: ['a.txt'] });
  });
});

describe('token scopes', () => {
  test('a read:repository token reads branches, contents and statuses but cannot write any of them (403)', async () => {
    const owner = await newUser();
    expect((await owner.client.post('/user/repos', { name: 'scoped', auto_init: true })).status).toBe(201);
    const base = `/repos/${owner.username}/scoped`;
    const reading = anonymous.as({ token: await users.newToken(owner, ['read:repository']) });
    const head = (await owner.client.get(`${base}/branches/main`)).body.commit.id;
    const readme = (await owner.client.get(`${base}/contents/README.md`)).body;

    expect((await reading.get(`${base}/branches`)).status).toBe(200);
    expect((await reading.get(`${base}/contents/README.md`)).status).toBe(200);
    expect((await reading.get(`${base}/commits/${head}/status`)).status).toBe(200);
    const writes: Array<[string, string, unknown]> = [
      ['POST', `${base}/branches`, { new_branch_name: 'x' }],
      ['PATCH', `${base}/branches/main`, { name: 'y' }],
      ['DELETE', `${base}/branches/main`, undefined],
      ['PUT', `${base}/branches/main`, { new_commit_id: head }],
      ['POST', `${base}/contents/x.txt`, { content: b64('x') }],
      ['PUT', `${base}/contents/README.md`, { content: b64('x'), sha: readme.sha }],
      ['DELETE', `${base}/contents/README.md`, { sha: readme.sha }],
      ['POST', `${base}/contents`, { files: [{ operation: 'create', path: 'y.txt', content: b64('y') }] }],
      ['POST', `${base}/statuses/${head}`, { state: 'success' }],
      ['POST', `${base}/branch_protections`, { rule_name: 'main' }],
    ];
    for (const [method, path, body] of writes) {
      const res = await reading.request(method, path, { body });
      expect([method, path, res.status, res.body.message]).toEqual([method, path, 403, expect.stringContaining('token does not have at least one of required scope(s)')]);
    }
    expect((await owner.client.get(`${base}/branches/main`)).body.commit.id).toBe(head);
  });
});

describe('private repositories', () => {
  test('every branch, contents, git, commit and status route is 404 to others and to anonymous callers', async () => {
    const owner = await newUser();
    const other = await newUser();
    expect((await owner.client.post('/user/repos', { name: 'hidden', auto_init: true, private: true })).status).toBe(201);
    const base = `/repos/${owner.username}/hidden`;
    const head = (await owner.client.get(`${base}/branches/main`)).body.commit;
    const blob = (await owner.client.get(`${base}/contents/README.md`)).body.sha;
    const reads = [
      '/branches', '/branches/main', '/contents', '/contents/README.md', '/raw/README.md', '/media/README.md',
      `/git/trees/${head.id}`, `/git/blobs/${blob}`, '/git/refs', `/git/commits/${head.id}`, `/git/commits/${head.id}.diff`,
      `/git/commits/${head.id}.patch`, '/commits', `/commits/${head.id}`, `/compare/main...main`, `/statuses/${head.id}`,
      `/commits/main/status`, `/commits/main/statuses`,
    ];
    // The owner's reads are checked against the contract; the strangers' 404 is not declared
    // by every one of these operations (Gitea answers it all the same), so theirs go out unchecked.
    // GET /commits/{ref} is Anvil's, answering as the contract's /git/commits/{sha}.
    const validateAs = (path: string) => (/^\/commits\/[0-9a-f]+$/.test(path) ? `${base}/git${path}` : undefined);
    const statusOf = async (user: User | undefined, path: string) => (user === owner
      ? await owner.client.request('GET', `${base}${path}`, { validateAs: validateAs(path) })
      : await (user?.client ?? anonymous).undeclared('GET', `${base}${path}`)).status;
    for (const path of reads) {
      expect([path, await statusOf(owner, path), await statusOf(other, path), await statusOf(undefined, path)]).toEqual([path, 200, 404, 404]);
    }
    const writes: Array<[string, string, unknown]> = [
      ['GET', '/branch_protections', undefined],
      ['POST', '/branch_protections', { rule_name: 'main' }],
      ['POST', '/branches', { new_branch_name: 'x' }],
      ['DELETE', '/branches/main', undefined],
      ['PATCH', '/branches/main', { name: 'y' }],
      ['PUT', '/branches/main', { new_commit_id: head.id }],
      ['POST', '/contents/x.txt', { content: b64('x') }],
      ['POST', `/statuses/${head.id}`, { state: 'success' }],
    ];
    for (const [method, path, body] of writes) {
      expect([method, path, (await other.client.undeclared(method, `${base}${path}`, body)).status]).toEqual([method, path, 404]);
    }
  });
});
