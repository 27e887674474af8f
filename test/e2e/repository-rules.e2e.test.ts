// Repository rules, one by one, where the other suites leave a rule unproven (see
// docs/repositories-checklist.md): repository names and limits as Gitea answers them, rename and
// archive with the git data and the git client, every /repos/search parameter, the list
// routes' paging, clone URLs, smart HTTP's 401, push events with what each commit changed,
// refs shaped like options, and a repository whose git data is broken. One booted system
// with `[repository] MAX_CREATION_LIMIT = 3`.
import { access, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { Accounts } from '../support/accounts.js';
import { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e } from '../support/e2e.js';
import type { EventRecorder } from '../support/event-recorder.js';
import { cloneUrl, gitIn } from '../support/git-cli.js';
import type { RunningSystem } from '../support/system.js';

jest.setTimeout(90_000);

let e2e: E2e;
let system: RunningSystem;
let anonymous: ApiClient;
let admin: ApiClient;
let users: Accounts;
let home: string;
let recorder: EventRecorder;
const git = (args: string[], cwd = home) => gitIn(home, args, cwd);
const urlFor = (path: string, user?: string, secret?: string) => cloneUrl(system.baseUrl, path, user, secret);
const names = (body: Array<{ name: string }>) => body.map((r) => r.name);
/** Where the repository service keeps a repository's bare git directory. */
const gitDirOf = (owner: string, name: string) => join(system.env.ANVIL_DATA_DIR!, 'repositories', owner.toLowerCase(), `${name.toLowerCase()}.git`);
const exists = (path: string) => access(path).then(() => true, () => false);

beforeAll(async () => {
  e2e = await bootE2e({ prefix: 'audit-user', env: { ANVIL__repository__MAX_CREATION_LIMIT: '3' }, gitHome: true, events: 'repository' });
  ({ system, anonymous, admin, users, home, recorder } = e2e);
}, 180_000);

afterAll(() => e2e?.close());

const newGitUser = () => e2e.newWriter({ scopes: ['write:repository', 'write:user'] });

let workdirs = 0;
async function workdir(): Promise<string> {
  workdirs += 1;
  return mkdtemp(join(home, `w${workdirs}-`));
}

describe('repository names, as Gitea validates them', () => {
  test('reserved names, reserved suffixes and runs of dots are 422 with Gitea\'s messages', async () => {
    const { client } = await users.newUser();
    const refused: Array<[string, string]> = [
      ['.', 'name is reserved [name: .]'],
      ['-', 'name is reserved [name: -]'],
      ['..', 'name is invalid [..]: must be valid alpha or numeric or dash(-_) or dot characters'],
      ['a..b', 'name is invalid [a..b]: must be valid alpha or numeric or dash(-_) or dot characters'],
      ['tool.git', 'name pattern is not allowed [pattern: *.git]'],
      ['Tool.Wiki', 'name pattern is not allowed [pattern: *.wiki]'],
      ['feed.rss', 'name pattern is not allowed [pattern: *.rss]'],
      ['feed.atom', 'name pattern is not allowed [pattern: *.atom]'],
    ];
    for (const [name, message] of refused) {
      const res = await client.post('/user/repos', { name });
      expect([name, res.status, res.body.message]).toEqual([name, 422, message]);
    }
    for (const name of ['bad name', 'a/b', 'ünï', 'semi;colon', '-dash', 'x'.repeat(101)]) {
      expect([name, (await client.post('/user/repos', { name })).status]).toEqual([name, 422]);
    }
    expect((await client.get('/user/repos')).body).toEqual([]);
  });

  test('`api`, `assets`, a leading dot (`.profile`) and single dots are ordinary repository names', async () => {
    const { username, client } = await users.newUser();
    await admin.patch(`/admin/users/${username}`, { login_name: username, source_id: 0, max_repo_creation: 10 });
    for (const name of ['api', 'assets', '.profile', 'v1.0_x-y']) {
      await users.eventually(() => client.post('/user/repos', { name }), 201);
      expect((await client.get(`/repos/${username}/${name}`)).body.name).toBe(name);
    }
    const dir = await workdir();
    const clone = await git(['clone', urlFor(`${username}/.profile.git`), 'profile'], dir);
    expect([clone.code, clone.stderr]).toEqual([0, expect.stringContaining('empty repository')]);
  });

  test('two concurrent creates of one name: one 201, one 409, and the winner\'s git data is whole', async () => {
    const { username, client } = await users.newUser();
    const results = await Promise.all([0, 1].map(() => client.post('/user/repos', { name: 'contested', auto_init: true })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.status === 409)!.body.message).toBe('The repository with the same name already exists.');
    // Only the winner's directory is in the owner's storage, and it clones with its README.
    expect(await readdir(join(system.env.ANVIL_DATA_DIR!, 'repositories', username.toLowerCase()))).toEqual(['contested.git']);
    const dir = await workdir();
    expect((await git(['clone', urlFor(`${username}/contested.git`), 'c'], dir)).code).toBe(0);
    expect(await exists(join(dir, 'c', 'README.md'))).toBe(true);
  });
});

describe('creation limits', () => {
  test('the site\'s MAX_CREATION_LIMIT is 422 with Gitea\'s message; a per-user limit overrides it, -1 falls back to it', async () => {
    const user = await users.newUser();
    const create = (name: string) => user.client.post('/user/repos', { name });
    for (const name of ['one', 'two', 'three']) expect((await create(name)).status).toBe(201);
    const fourth = await create('four');
    expect(fourth.status).toBe(422);
    expect(fourth.body.message).toBe('user has reached maximum limit of repositories [limit: 3]');
    expect((await user.client.get('/user/repos')).body).toHaveLength(3);

    // A site admin may still create one for the user.
    expect((await admin.post(`/admin/users/${user.username}/repos`, { name: 'given' })).status).toBe(201);

    // The user's own limit (identity's max_repo_creation) wins over the site's.
    const edit = (max: number) => admin.patch(`/admin/users/${user.username}`, { login_name: user.username, source_id: 0, max_repo_creation: max });
    // (one, two, three, given: four repositories; a limit of 5 allows one more.)
    expect((await edit(5)).status).toBe(200);
    await users.eventually(() => create('five'), 201);
    const sixth = await create('six');
    expect([sixth.status, sixth.body.message]).toEqual([422, 'user has reached maximum limit of repositories [limit: 5]']);

    // -1 means "the site's limit" again; 0 means none at all.
    expect((await edit(-1)).status).toBe(200);
    await users.eventually(async () => {
      const res = await create('seven');
      return { status: res.status === 422 && res.body.message === 'user has reached maximum limit of repositories [limit: 3]' ? 422 : res.status };
    }, 422);
    const other = await users.newUser();
    expect((await admin.patch(`/admin/users/${other.username}`, { login_name: other.username, source_id: 0, max_repo_creation: 0 })).status).toBe(200);
    await users.eventually(async () => {
      const res = await other.client.post('/user/repos', { name: users.unique('none') });
      if (res.status === 201) await other.client.delete(`/repos/${other.username}/${res.body.name}`);
      return res;
    }, 422);
  });
});

describe('reading repositories', () => {
  test('clone_url, html_url, ssh_url and url are built from ROOT_URL', async () => {
    const { username, client } = await users.newUser();
    const res = await client.post('/user/repos', { name: 'urls' });
    const host = new URL(system.baseUrl).hostname;
    expect(res.body).toMatchObject({
      clone_url: `${system.baseUrl}${username}/urls.git`,
      html_url: `${system.baseUrl}${username}/urls`,
      ssh_url: `git@${host}:${username}/urls.git`,
      url: `${system.baseUrl}api/v1/repos/${username}/urls`,
      languages_url: `${system.baseUrl}api/v1/repos/${username}/urls/languages`,
    });
    // `template` is kept and searchable.
    const template = await client.post('/user/repos', { name: 'urls-template', template: true });
    expect(template.body.template).toBe(true);
    const templates = await client.get(`/repos/search?q=urls&uid=${template.body.owner.id}&template=true`);
    expect(names(templates.body.data)).toEqual(['urls-template']);
  });

  test('/repositories/{id} needs a signed-in caller (401, as Gitea\'s reqToken) and hides private repositories (404)', async () => {
    const owner = await users.newUser();
    const other = await users.newUser();
    const open = await owner.client.post('/user/repos', { name: 'by-id' });
    const closed = await owner.client.post('/user/repos', { name: 'by-id-private', private: true });
    const anon = await anonymous.get(`/repositories/${open.body.id}`);
    expect(anon.status).toBe(401);
    expect(anon.body.message).toBe('token is required');
    expect((await other.client.get(`/repositories/${open.body.id}`)).body.full_name).toBe(`${owner.username}/by-id`);
    expect((await other.client.get(`/repositories/${closed.body.id}`)).status).toBe(404);
    expect((await owner.client.get(`/repositories/${closed.body.id}`)).body.private).toBe(true);
    expect((await other.client.get('/repositories/999999999')).status).toBe(404);
  });
});

describe('lists', () => {
  test('/user/repos pages the caller\'s and their collaborations by id, with Link and X-Total-Count', async () => {
    const me = await users.newUser();
    const friend = await users.newUser();
    for (const name of ['m1', 'm2']) expect((await me.client.post('/user/repos', { name })).status).toBe(201);
    expect((await friend.client.post('/user/repos', { name: 'theirs', private: true })).status).toBe(201);
    expect((await friend.client.put(`/repos/${friend.username}/theirs/collaborators/${me.username}`, { permission: 'read' })).status).toBe(204);

    const all = await me.client.get('/user/repos');
    expect(names(all.body)).toEqual(['m1', 'm2', 'theirs']);
    expect(all.headers.get('x-total-count')).toBe('3');
    const page2 = await me.client.get('/user/repos?limit=1&page=2');
    expect(names(page2.body)).toEqual(['m2']);
    expect(page2.headers.get('x-total-count')).toBe('3');
    const link = page2.headers.get('link')!;
    expect(link).toContain('/api/v1/user/repos?limit=1&page=3>; rel="next"');
    expect(link).toContain('/api/v1/user/repos?limit=1&page=1>; rel="prev"');
    expect(link).toContain('/api/v1/user/repos?limit=1&page=3>; rel="last"');
    expect(link).toContain('/api/v1/user/repos?limit=1&page=1>; rel="first"');
    expect((await anonymous.get('/user/repos')).status).toBe(401);
  });

  test('/user/{username}/repos, as the specification spells it, answers what /users/{username}/repos answers', async () => {
    const { username, client } = await users.newUser();
    for (const name of ['u1', 'u2', 'u3']) expect((await client.post('/user/repos', { name })).status).toBe(201);
    // This spelling is not an operation of the contract, so plain fetch asks it.
    const spelled = await fetch(`${system.baseUrl}api/v1/user/${username}/repos?limit=2&page=2`);
    expect(spelled.status).toBe(200);
    const documented = await anonymous.get(`/users/${username}/repos?limit=2&page=2`);
    expect(names(await spelled.json() as Array<{ name: string }>)).toEqual(names(documented.body));
    expect(names(documented.body)).toEqual(['u3']);
    expect(spelled.headers.get('x-total-count')).toBe('3');
    expect(spelled.headers.get('link')).toContain('rel="first"');
    expect((await fetch(`${system.baseUrl}api/v1/user/no-such-user-here/repos`)).status).toBe(404);
  });

  test('/orgs/{org}/repos pages by id with Link and X-Total-Count; a private repository is listed to members only', async () => {
    const { client } = await users.newUser();
    const org = users.unique('auditorg');
    expect((await client.post('/orgs', { username: org, visibility: 'public' })).status).toBe(201);
    // Repository learns the org (and its Owners team) from identity's events.
    await users.eventually(() => client.post(`/orgs/${org}/repos`, { name: 'o1' }), 201);
    for (const name of ['o2', 'o3']) expect((await client.post(`/orgs/${org}/repos`, { name, private: name === 'o3' })).status).toBe(201);
    const page = await client.get(`/orgs/${org}/repos?limit=2&page=2`);
    expect(names(page.body)).toEqual(['o3']);
    expect(page.headers.get('x-total-count')).toBe('3');
    expect(page.headers.get('link')).toContain(`/api/v1/orgs/${org}/repos?limit=2&page=1>; rel="first"`);
    const anon = await anonymous.get(`/orgs/${org}/repos`);
    expect(names(anon.body)).toEqual(['o1', 'o2']);
    expect(anon.headers.get('x-total-count')).toBe('2');
  });

  test('/repos/search honours q, uid, exclusive, is_private, private, archived, mode, sort and order', async () => {
    const owner = await users.newUser();
    const helper = await users.newUser();
    await admin.patch(`/admin/users/${owner.username}`, { login_name: owner.username, source_id: 0, max_repo_creation: 10 });
    const tag = users.unique('srch').replace(/-/g, '');
    const create = (client: ApiClient, name: string, extra = {}) => users.eventually(() => client.post('/user/repos', { name: `${tag}-${name}`, ...extra }), 201);
    await create(owner.client, 'beta');
    await create(owner.client, 'alpha', { private: true });
    await create(owner.client, 'gamma');
    await create(helper.client, 'shared');
    expect((await owner.client.patch(`/repos/${owner.username}/${tag}-gamma`, { archived: true })).status).toBe(200);
    expect((await helper.client.put(`/repos/${helper.username}/${tag}-shared/collaborators/${owner.username}`, { permission: 'write' })).status).toBe(204);

    const search = async (query: string, client: ApiClient = owner.client) => {
      const res = await client.get(`/repos/search?q=${tag}&${query}`);
      expect([query, res.status]).toEqual([query, 200]);
      expect(res.body.ok).toBe(true);
      return (res.body.data as Array<{ name: string }>).map((r) => r.name.slice(tag.length + 1));
    };
    expect(await search('')).toEqual(['beta', 'alpha', 'gamma', 'shared']);
    expect(await search(`uid=${owner.id}`)).toEqual(['beta', 'alpha', 'gamma', 'shared']);
    expect(await search(`uid=${owner.id}&exclusive=true`)).toEqual(['beta', 'alpha', 'gamma']);
    expect(await search(`uid=${owner.id}&mode=collaborative`)).toEqual(['shared']);
    expect(await search(`uid=${owner.id}&mode=source`)).toEqual(['beta', 'alpha', 'gamma', 'shared']);
    expect(await search(`uid=${owner.id}&mode=fork`)).toEqual([]);
    expect(await search(`uid=${owner.id}&mode=mirror`)).toEqual([]);
    expect(await search('is_private=true')).toEqual(['alpha']);
    expect(await search('is_private=false')).toEqual(['beta', 'gamma', 'shared']);
    expect(await search('private=false')).toEqual(['beta', 'gamma', 'shared']);
    expect(await search('archived=true')).toEqual(['gamma']);
    expect(await search('archived=false')).toEqual(['beta', 'alpha', 'shared']);
    expect(await search('sort=alpha')).toEqual(['alpha', 'beta', 'gamma', 'shared']);
    expect(await search('sort=alpha&order=desc')).toEqual(['shared', 'gamma', 'beta', 'alpha']);
    expect(await search('sort=id&order=desc')).toEqual(['shared', 'gamma', 'alpha', 'beta']);
    // `order` alone is ignored, as in Gitea (it applies to `sort`).
    expect(await search('order=desc')).toEqual(['beta', 'alpha', 'gamma', 'shared']);
    expect(await search('', anonymous)).toEqual(['beta', 'gamma', 'shared']);

    const paged = await owner.client.get(`/repos/search?q=${tag}&limit=3&page=2`);
    expect(paged.body.data).toHaveLength(1);
    expect(paged.headers.get('x-total-count')).toBe('4');
    expect(paged.headers.get('link')).toContain('rel="prev"');

    const badMode = await owner.client.get('/repos/search?mode=everything');
    expect([badMode.status, badMode.body.message]).toEqual([422, 'Invalid search mode: "everything"']);
    const badSort = await owner.client.get('/repos/search?sort=sideways');
    expect([badSort.status, badSort.body.message]).toEqual([422, 'Invalid sort mode: "sideways"']);
    const badOrder = await owner.client.get('/repos/search?sort=alpha&order=upwards');
    expect([badOrder.status, badOrder.body.message]).toEqual([422, 'Invalid sort order: "upwards"']);
  });
});

describe('editing', () => {
  test('a rename moves the git data: the new name clones, the old one is 404 to the API and to git', async () => {
    const { username, client, token } = await newGitUser();
    expect((await client.post('/user/repos', { name: 'before', auto_init: true })).status).toBe(201);
    expect((await client.post('/user/repos', { name: 'taken' })).status).toBe(201);

    const clash = await client.patch(`/repos/${username}/before`, { name: 'Taken' });
    expect([clash.status, clash.body.message]).toEqual([422, 'repo name is already taken [name: Taken]']);
    const reserved = await client.patch(`/repos/${username}/before`, { name: 'before.git' });
    expect([reserved.status, reserved.body.message]).toEqual([422, 'repo name\'s pattern is not allowed [name: before.git, pattern: *.git]']);

    const renamed = await client.patch(`/repos/${username}/before`, { name: 'after' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'after', clone_url: `${system.baseUrl}${username}/after.git` });
    expect(await exists(gitDirOf(username, 'before'))).toBe(false);
    expect(await exists(gitDirOf(username, 'after'))).toBe(true);
    expect((await client.get(`/repos/${username}/before`)).status).toBe(404);

    const dir = await workdir();
    expect((await git(['clone', urlFor(`${username}/after.git`, username, token), 'after'], dir)).code).toBe(0);
    expect(await exists(join(dir, 'after', 'README.md'))).toBe(true);
    const old = await git(['clone', urlFor(`${username}/before.git`, username, token), 'before'], dir);
    expect(old.code).not.toBe(0);
    expect(old.stderr).toMatch(/not found|404/);

    // The default branch may become any existing branch; git's HEAD follows.
    const work = join(dir, 'after');
    expect((await git(['push', 'origin', 'HEAD:refs/heads/release'], work)).code).toBe(0);
    expect((await client.patch(`/repos/${username}/after`, { default_branch: 'release' })).body.default_branch).toBe('release');
    const head = await git(['ls-remote', '--symref', 'origin', 'HEAD'], work);
    expect(head.stdout).toContain('ref: refs/heads/release\tHEAD');

    // A change of case only keeps the data where it is.
    const cased = await client.patch(`/repos/${username}/after`, { name: 'After' });
    expect([cased.status, cased.body.name]).toEqual([200, 'After']);
    expect((await git(['clone', urlFor(`${username}/After.git`, username, token), 'cased'], dir)).code).toBe(0);
  });

  test('archiving sets archived_at and refuses pushes; unarchiving resets archived_at and pushes land again', async () => {
    const { username, client, token } = await newGitUser();
    expect((await client.post('/user/repos', { name: 'shelf', auto_init: true })).status).toBe(201);
    const dir = await workdir();
    expect((await git(['clone', urlFor(`${username}/shelf.git`, username, token), 'shelf'], dir)).code).toBe(0);
    const work = join(dir, 'shelf');
    await writeFile(join(work, 'late.txt'), 'late\n');
    await git(['add', '.'], work);
    await git(['commit', '-m', 'late'], work);

    const archived = await client.patch(`/repos/${username}/shelf`, { archived: true });
    expect(archived.body.archived).toBe(true);
    expect(Date.parse(archived.body.archived_at)).toBeGreaterThan(Date.now() - 60 * 60_000);
    const refused = await git(['push', 'origin', 'HEAD:main'], work);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/archived/i);

    const restored = await client.patch(`/repos/${username}/shelf`, { archived: false });
    expect(restored.body).toMatchObject({ archived: false, archived_at: '1970-01-01T00:00:00Z' });
    expect((await git(['push', 'origin', 'HEAD:main'], work)).code).toBe(0);
  });

  test('deleting removes the git directory and announces repository.repo.deleted', async () => {
    const { username, client } = await users.newUser();
    const made = await client.post('/user/repos', { name: 'gone', auto_init: true });
    expect(await exists(gitDirOf(username, 'gone'))).toBe(true);
    expect((await client.delete(`/repos/${username}/gone`)).status).toBe(204);
    expect(await exists(gitDirOf(username, 'gone'))).toBe(false);
    const deleted = await recorder.eventMatching((e) => e.subject === 'repository.repo.deleted' && e.payload.repository?.id === made.body.id);
    expect(deleted.payload.repository).toMatchObject({ name: 'gone', owner_login: username });
  });
});

describe('collaborators', () => {
  test('anyone with read access lists them (a read collaborator, a stranger on a public repository); anonymous callers get 401', async () => {
    const owner = await users.newUser();
    const reader = await users.newUser();
    const stranger = await users.newUser();
    expect((await owner.client.post('/user/repos', { name: 'team-private', private: true })).status).toBe(201);
    expect((await owner.client.post('/user/repos', { name: 'team-public' })).status).toBe(201);
    for (const repo of ['team-private', 'team-public']) {
      expect((await owner.client.put(`/repos/${owner.username}/${repo}/collaborators/${reader.username}`, { permission: 'read' })).status).toBe(204);
    }
    const asReader = await reader.client.get(`/repos/${owner.username}/team-private/collaborators`);
    expect(asReader.status).toBe(200);
    expect(asReader.body.map((u: { login: string }) => u.login)).toEqual([reader.username]);
    expect((await reader.client.get(`/repos/${owner.username}/team-private/collaborators/${reader.username}`)).status).toBe(204);
    expect((await stranger.client.get(`/repos/${owner.username}/team-public/collaborators`)).status).toBe(200);
    expect((await stranger.client.get(`/repos/${owner.username}/team-private/collaborators`)).status).toBe(404);
    expect((await anonymous.get(`/repos/${owner.username}/team-public/collaborators`)).status).toBe(401);
  });
});

describe('git over HTTP', () => {
  test('a private repository answers 401 with WWW-Authenticate to anonymous git, and so does a push to a public one', async () => {
    const { username, client } = await users.newUser();
    expect((await client.post('/user/repos', { name: 'locked', private: true, auto_init: true })).status).toBe(201);
    expect((await client.post('/user/repos', { name: 'visible', auto_init: true })).status).toBe(201);
    const refs = (path: string, service: string, auth?: string) =>
      fetch(`${system.baseUrl}${path}/info/refs?service=${service}`, { headers: auth ? { authorization: auth } : {} });

    const locked = await refs(`${username}/locked.git`, 'git-upload-pack');
    expect(locked.status).toBe(401);
    expect(locked.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    const push = await refs(`${username}/visible.git`, 'git-receive-pack');
    expect(push.status).toBe(401);
    expect(push.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    const wrong = await refs(`${username}/locked.git`, 'git-upload-pack', `Basic ${Buffer.from(`${username}:wrong-password`).toString('base64')}`);
    expect(wrong.status).toBe(401);
    const anonClone = await refs(`${username}/visible.git`, 'git-upload-pack');
    expect(anonClone.status).toBe(200);
    expect(anonClone.headers.get('content-type')).toBe('application/x-git-upload-pack-advertisement');
  });

  test('push events list each commit\'s added, removed and modified files; a deleted branch is announced', async () => {
    const { username, client, token } = await newGitUser();
    expect((await client.post('/user/repos', { name: 'changes' })).status).toBe(201);
    const dir = await workdir();
    expect((await git(['init', 'src'], dir)).code).toBe(0);
    const work = join(dir, 'src');
    const remote = urlFor(`${username}/changes.git`, username, token);
    await writeFile(join(work, 'keep.txt'), 'v1\n');
    await writeFile(join(work, 'drop.txt'), 'bye\n');
    await git(['add', '.'], work);
    await git(['commit', '-m', 'first'], work);
    expect((await git(['push', remote, 'HEAD:refs/heads/main'], work)).code).toBe(0);
    const repo = (await client.get(`/repos/${username}/changes`)).body;
    expect(repo).toMatchObject({ empty: false, default_branch: 'main' });

    await writeFile(join(work, 'keep.txt'), 'v2\n');
    await writeFile(join(work, 'new.txt'), 'hello\n');
    await git(['rm', '-q', 'drop.txt'], work);
    await git(['add', '.'], work);
    await git(['commit', '-m', 'second'], work);
    const second = (await git(['rev-parse', 'HEAD'], work)).stdout.trim();
    expect((await git(['push', remote, 'HEAD:refs/heads/main', 'HEAD:refs/heads/topic'], work)).code).toBe(0);
    const pushed = await recorder.eventMatching((e) => e.subject === 'repository.push' && e.payload.repository?.id === repo.id && e.payload.after === second && e.payload.ref === 'refs/heads/main');
    expect(pushed.payload).toMatchObject({ total_commits: 1, pusher: { login: username } });
    expect(pushed.payload.commits[0]).toMatchObject({ id: second, message: 'second\n', added: ['new.txt'], removed: ['drop.txt'], modified: ['keep.txt'] });
    expect(pushed.payload.commits[0].committer).toMatchObject({ name: 'E2E', email: 'e2e@example.com' });
    await recorder.eventMatching((e) => e.subject === 'repository.branch.created' && e.payload.repository?.id === repo.id && e.payload.name === 'topic');

    expect((await git(['push', remote, ':refs/heads/topic'], work)).code).toBe(0);
    const deleted = await recorder.eventMatching((e) => e.subject === 'repository.branch.deleted' && e.payload.repository?.id === repo.id);
    expect(deleted.payload).toMatchObject({ name: 'topic', ref: 'refs/heads/topic', sha: second, pusher: { login: username } });
  });

  test('branches and tags named like git options are stored and listed, and never act as options', async () => {
    const { username, client, token } = await newGitUser();
    expect((await client.post('/user/repos', { name: 'dashes', auto_init: true })).status).toBe(201);
    const dir = await workdir();
    const remote = urlFor(`${username}/dashes.git`, username, token);
    expect((await git(['clone', remote, 'd'], dir)).code).toBe(0);
    const work = join(dir, 'd');
    // git accepts these ref names; only their use as arguments is dangerous.
    const push = await git(['push', 'origin', 'HEAD:refs/heads/--upload-pack=touch', 'HEAD:refs/tags/--output=x'], work);
    expect(push.code).toBe(0);
    const branches = await client.get(`/repos/${username}/dashes/branches`);
    expect(branches.body.map((b: { name: string }) => b.name).sort()).toEqual(['--upload-pack=touch', 'main']);
    const tags = await client.get(`/repos/${username}/dashes/tags`);
    expect(tags.body.map((t: { name: string }) => t.name)).toEqual(['--output=x']);
    for (const path of ['archive/--upload-pack=touch.zip', 'archive/--output=x.tar.gz', 'languages']) {
      const res = await anonymous.as({ token }).bytes(`/repos/${username}/dashes/${path}`);
      expect([path, res.status < 500]).toEqual([path, true]);
    }
    // Nothing named like the option's argument appeared anywhere git ran.
    expect(await exists(join(gitDirOf(username, 'dashes'), 'touch'))).toBe(false);
    expect(await exists(join(gitDirOf(username, 'dashes'), 'x'))).toBe(false);
    // The repository still serves clones.
    expect((await git(['clone', remote, 'again'], dir)).code).toBe(0);
  });

  test('a repository whose git data is broken answers clear errors at once, never a hung request', async () => {
    const { username, client, token } = await newGitUser();
    expect((await client.post('/user/repos', { name: 'broken', auto_init: true })).status).toBe(201);
    const gitDir = gitDirOf(username, 'broken');
    await rm(join(gitDir, 'objects'), { recursive: true, force: true });
    await rm(join(gitDir, 'refs'), { recursive: true, force: true });

    // Each answer comes at once (the signal would abort a hung one) in Gitea's error shape;
    // git's own message goes to the repository service's log, not to the caller.
    const answers: Record<string, number> = {};
    const asOwner = anonymous.as({ token });
    const bounded = () => ({ signal: AbortSignal.timeout(20_000) });
    for (const path of ['archive/main.zip', 'archive/main.bundle']) {
      const res = await asOwner.request('GET', `/repos/${username}/broken/${path}`, bounded());
      answers[path] = res.status;
      expect(res.body).toEqual(expect.objectContaining({ message: expect.any(String), url: `${system.baseUrl}api/swagger` }));
    }
    // No ref resolves any more: archives are 404.
    expect(answers).toEqual({ 'archive/main.zip': 404, 'archive/main.bundle': 404 });
    // Branch and tag lists come from the refs table the last write turn wrote, not from git.
    const branches = await asOwner.request('GET', `/repos/${username}/broken/branches`, bounded());
    expect([branches.status, branches.body.map((b: { name: string }) => b.name)]).toEqual([200, ['main']]);
    const dir = await workdir();
    const clone = await git(['clone', urlFor(`${username}/broken.git`, username, token), 'b'], dir);
    expect(clone.code).not.toBe(0);
    // The repository itself still answers.
    expect((await client.get(`/repos/${username}/broken`)).status).toBe(200);
  });
});
