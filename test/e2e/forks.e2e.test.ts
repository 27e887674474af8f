// Forks through the gateway with real git behind them: forking (into a user or an
// organization), listing forks, the repository JSON's fork, parent and forks_count, a private
// fork's visibility, and pull requests from a fork — opened, followed by pushes to the fork,
// merged, and still readable after the head branch or the whole fork is deleted.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { bootE2e, type E2e, type Writer } from '../support/e2e.js';
import { eventually } from '../support/eventually.js';

jest.setTimeout(180_000);

let e2e: E2e;

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'fork-user' });
}, 180_000);

afterAll(() => e2e?.close());

const SCOPES = ['write:repository', 'write:issue', 'write:user', 'write:organization'];
const b64 = (s: string) => Buffer.from(s).toString('base64');

/** A public repository with a README on main; its API path. */
async function newRepository(owner: Writer, extra: Record<string, unknown> = {}): Promise<string> {
  const name = e2e.users.unique('forked-');
  const made = await owner.client.post('/user/repos', { name, auto_init: true, description: 'the original', ...extra });
  expect(made.status).toBe(201);
  return `/repos/${owner.username}/${name}`;
}

describe('forking a repository', () => {
  it('forks into the caller\'s account with 202, the fork\'s JSON naming its parent, and counts it on the parent', async () => {
    const ada = await e2e.newWriter({ scopes: SCOPES });
    const bob = await e2e.newWriter({ scopes: SCOPES });
    const parent = await newRepository(ada);
    const name = parent.split('/')[3];

    const res = await bob.client.post(`${parent}/forks`, {});
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      name, full_name: `${bob.username}/${name}`, fork: true, private: false, description: 'the original', empty: false,
      owner: { login: bob.username }, permissions: { admin: true, push: true, pull: true },
      parent: { full_name: `${ada.username}/${name}`, fork: false, forks_count: 1 },
    });
    expect(res.body.parent.parent).toBeUndefined();

    const readParent = await e2e.anonymous.get(parent);
    expect(readParent.body).toMatchObject({ fork: false, parent: null, forks_count: 1 });
    const readFork = await e2e.anonymous.get(`/repos/${bob.username}/${name}`);
    expect(readFork.body).toMatchObject({ fork: true, parent: { id: readParent.body.id } });
    // The fork has the parent's branches and commits.
    const main = async (path: string) => (await e2e.anonymous.get(`${path}/branches/main`)).body.commit.id;
    expect(await main(`/repos/${bob.username}/${name}`)).toBe(await main(parent));

    const named = await bob.client.post(`${parent}/forks`, { name: 'second' });
    expect(named.status).toBe(409);
    expect(named.body.message).toContain('already forked');
  });

  it('refuses a name the owner already uses (409), an unknown organization (422) and anonymous callers (401)', async () => {
    const ada = await e2e.newWriter({ scopes: SCOPES });
    const cat = await e2e.newWriter({ scopes: SCOPES });
    const parent = await newRepository(ada);
    const name = parent.split('/')[3];
    expect((await cat.client.post('/user/repos', { name })).status).toBe(201);
    expect((await cat.client.post(`${parent}/forks`, {})).status).toBe(409);
    expect((await cat.client.post(`${parent}/forks`, { organization: e2e.users.unique('no-org-') })).status).toBe(422);
    expect((await e2e.anonymous.post(`${parent}/forks`, {})).status).toBe(401);
    for (const bad of ['../up', '-x', 'a'.repeat(101), 'x.git', 'sp ace']) {
      expect((await cat.client.post(`${parent}/forks`, { name: bad })).status).toBe(422);
    }
    expect((await cat.client.post(`${parent}/forks`, { organization: '../../etc' })).status).toBe(422);
    expect((await e2e.anonymous.get(parent)).body.forks_count).toBe(0);
  });

  it('forks into an organization only for members who may create repositories there', async () => {
    const ada = await e2e.newWriter({ scopes: SCOPES });
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const reader = await e2e.newWriter({ scopes: SCOPES });
    const stranger = await e2e.newWriter({ scopes: SCOPES });
    const parent = await newRepository(ada);
    const org = e2e.users.unique('fork-org-');
    expect((await owner.client.post('/orgs', { username: org })).status).toBe(201);
    const team = await owner.client.post(`/orgs/${org}/teams`, { name: 'readers', permission: 'read', can_create_org_repo: false, units: ['repo.code'] });
    expect(team.status).toBe(201);
    expect((await owner.client.put(`/teams/${team.body.id}/members/${reader.username}`)).status).toBe(204);

    const notMember = await stranger.client.post(`${parent}/forks`, { organization: org });
    expect(notMember.status).toBe(403);
    expect(notMember.body.message).toBe(`User is no Member of Organisation '${org}'`);
    expect((await reader.client.post(`${parent}/forks`, { organization: org })).status).toBe(403);
    const made = await owner.client.post(`${parent}/forks`, { organization: org, name: 'org-copy' });
    expect(made.status).toBe(202);
    expect(made.body).toMatchObject({ full_name: `${org}/org-copy`, fork: true, owner: { login: org } });
  });

  it('keeps a fork of a private repository private: strangers get 404 and do not see it listed', async () => {
    const dan = await e2e.newWriter({ scopes: SCOPES });
    const eve = await e2e.newWriter({ scopes: SCOPES });
    const parent = await newRepository(dan, { private: true });
    expect((await eve.client.post(`${parent}/forks`, {})).status).toBe(404);
    expect((await dan.client.put(`${parent}/collaborators/${eve.username}`, { permission: 'read' })).status).toBe(204);
    const fork = await eve.client.post(`${parent}/forks`, {});
    expect(fork.status).toBe(202);
    expect(fork.body.private).toBe(true);

    const stranger = await e2e.newWriter({ scopes: SCOPES });
    expect((await stranger.client.get(`/repos/${eve.username}/${fork.body.name}`)).status).toBe(404);
    expect((await e2e.anonymous.get(`/repos/${eve.username}/${fork.body.name}`)).status).toBe(404);
    const listed = await dan.client.get(`${parent}/forks`);
    expect(listed.status).toBe(200);
    // The parent's owner cannot see eve's private fork either.
    expect(listed.headers.get('x-total-count')).toBe('0');
    const own = await eve.client.get(`${parent}/forks`);
    expect(own.body.map((r: { full_name: string }) => r.full_name)).toEqual([fork.body.full_name]);
  });

  it('lists forks oldest first, page by page, with X-Total-Count and Link', async () => {
    const ada = await e2e.newWriter({ scopes: SCOPES });
    const parent = await newRepository(ada);
    const forkers = [await e2e.newWriter({ scopes: SCOPES }), await e2e.newWriter({ scopes: SCOPES })];
    for (const f of forkers) expect((await f.client.post(`${parent}/forks`, {})).status).toBe(202);
    const first = await e2e.anonymous.get(`${parent}/forks?page=1&limit=1`);
    expect(first.headers.get('x-total-count')).toBe('2');
    expect(first.headers.get('link')).toContain('rel="next"');
    expect(first.body.map((r: { owner: { login: string } }) => r.owner.login)).toEqual([forkers[0].username]);
    const second = await e2e.anonymous.get(`${parent}/forks?page=2&limit=1`);
    expect(second.body.map((r: { owner: { login: string } }) => r.owner.login)).toEqual([forkers[1].username]);
    const searched = await e2e.anonymous.get(`/repos/search?mode=fork&q=${parent.split('/')[3]}`);
    expect(searched.body.data).toHaveLength(2);
    const byForks = await e2e.anonymous.get(`/repos/search?sort=forks&order=desc&q=${parent.split('/')[3]}`);
    expect(byForks.body.data[0]).toMatchObject({ full_name: parent.slice(7), forks_count: 2 });
  });
});

describe('pull requests from a fork', () => {
  /** ada's repository, bob's fork of it with a `topic` branch adding one file; the pull's API paths. */
  async function forkWithTopic() {
    const ada = await e2e.newWriter({ scopes: SCOPES });
    const bob = await e2e.newWriter({ scopes: SCOPES });
    const base = await newRepository(ada);
    const fork = await bob.client.post(`${base}/forks`, {});
    expect(fork.status).toBe(202);
    const forkPath = `/repos/${bob.username}/${fork.body.name}`;
    const made = await bob.client.post(`${forkPath}/contents/feature.txt`, { content: b64('one\n'), new_branch: 'topic', message: 'Add feature' });
    expect(made.status).toBe(201);
    return { ada, bob, base, forkPath, forkId: fork.body.id as number, topicSha: made.body.commit.sha as string };
  }

  it('opens a pull from owner:branch of a fork, follows pushes to the fork, and merges it', async () => {
    const { ada, bob, base, forkPath, forkId, topicSha } = await forkWithTopic();
    const opened = await bob.client.post(`${base}/pulls`, { title: 'From my fork', head: `${bob.username}:topic`, base: 'main' });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({
      number: 1, mergeable: true, additions: 1, changed_files: 1,
      head: { ref: 'topic', label: `${bob.username}:topic`, sha: topicSha, repo_id: forkId, repo: { id: forkId, fork: true } },
      base: { ref: 'main' },
    });
    expect((await bob.client.post(`${base}/pulls`, { title: 'again', head: `${bob.username}:topic`, base: 'main' })).status).toBe(409);
    expect((await e2e.anonymous.get(`${base}/pulls/main/${bob.username}:topic`)).body).toMatchObject({ number: 1, head: { repo_id: forkId } });
    // The base has no `topic` branch of its own: that head names nothing.
    expect((await e2e.anonymous.get(`${base}/pulls/main/topic`)).status).toBe(404);
    expect((await bob.client.post(`${base}/pulls`, { title: 'x', head: `${bob.username}:nope`, base: 'main' })).status).toBe(404);

    // A push to the fork's branch reaches the pull: new head, new totals.
    const pushed = await bob.client.post(`${forkPath}/contents/more.txt`, { content: b64('a\nb\n'), branch: 'topic', message: 'More' });
    expect(pushed.status).toBe(201);
    const followed = await eventually(() => e2e.anonymous.get(`${base}/pulls/1`), (r) => r.body.head?.sha === pushed.body.commit.sha, 'the pull following the fork\'s push');
    expect(followed.body).toMatchObject({ additions: 3, changed_files: 2, mergeable: true });
    const files = await e2e.anonymous.get(`${base}/pulls/1/files`);
    expect(files.body.map((f: { filename: string }) => f.filename).sort()).toEqual(['feature.txt', 'more.txt']);

    const merged = await ada.client.post(`${base}/pulls/1/merge`, { do: 'merge', delete_branch_after_merge: true });
    expect(merged.status).toBe(200);
    const read = await e2e.anonymous.get(`${base}/pulls/1`);
    expect(read.body).toMatchObject({ merged: true, state: 'closed' });
    expect((await e2e.anonymous.get(`${base}/contents/more.txt`)).status).toBe(200);
    // The fork's branch is the fork's: merging never deletes it.
    expect((await e2e.anonymous.get(`${forkPath}/branches/topic`)).status).toBe(200);
  });

  it('finds a pull by its base and a head given as branch, owner:branch or owner/repo:branch', async () => {
    const { ada, bob, base, forkPath, forkId } = await forkWithTopic();
    const deep = await bob.client.post(`${forkPath}/contents/deep.txt`, { content: b64('deep\n'), new_branch: 'work/deep', message: 'Deep' });
    expect(deep.status).toBe(201);
    expect((await bob.client.post(`${base}/pulls`, { title: 'Deep', head: `${bob.username}:work/deep`, base: 'main' })).status).toBe(201);
    const own = await ada.client.post(`${base}/contents/own.txt`, { content: b64('own\n'), new_branch: 'own/work', message: 'Own' });
    expect(own.status).toBe(201);
    expect((await ada.client.post(`${base}/pulls`, { title: 'Own', head: 'own/work', base: 'main' })).status).toBe(201);

    const forkName = forkPath.split('/')[3];
    for (const head of [`${bob.username}:work/deep`, `${bob.username}/${forkName}:work/deep`]) {
      const found = await e2e.anonymous.get(`${base}/pulls/main/${head}`);
      expect(found.status).toBe(200);
      expect(found.body).toMatchObject({ number: 1, title: 'Deep', head: { ref: 'work/deep', repo_id: forkId } });
    }
    for (const head of ['own/work', `${ada.username}:own/work`, `${base.slice(7)}:own/work`]) {
      const found = await e2e.anonymous.get(`${base}/pulls/main/${head}`);
      expect(found.status).toBe(200);
      expect(found.body).toMatchObject({ number: 2, title: 'Own' });
    }
    // A repository that is not in the base's network, or a head no pull has, is 404.
    expect((await e2e.anonymous.get(`${base}/pulls/main/${bob.username}/elsewhere:work/deep`)).status).toBe(404);
    expect((await e2e.anonymous.get(`${base}/pulls/main/${bob.username}/${forkName}:topic`)).status).toBe(404);
  });

  it('shows the fork as the pull\'s head repository to anyone who may read the pull, with their own permission there', async () => {
    const { ada, bob, base, forkPath, forkId } = await forkWithTopic();
    expect((await bob.client.post(`${base}/pulls`, { title: 'From a fork gone private', head: `${bob.username}:topic`, base: 'main' })).status).toBe(201);
    expect((await bob.client.patch(forkPath, { private: true })).status).toBe(200);
    expect((await e2e.anonymous.get(forkPath)).status).toBe(404);

    const stranger = await e2e.anonymous.get(`${base}/pulls/1`);
    expect(stranger.status).toBe(200);
    expect(stranger.body.head).toMatchObject({
      repo_id: forkId, repo: { id: forkId, full_name: forkPath.slice(7), private: true, fork: true, permissions: { admin: false, push: false, pull: false } },
    });
    const listed = await ada.client.get(`${base}/pulls`);
    expect(listed.body[0].head.repo).toMatchObject({ id: forkId, permissions: { admin: false, push: false, pull: false } });
    const owner = await bob.client.get(`${base}/pulls/1`);
    expect(owner.body.head.repo).toMatchObject({ id: forkId, permissions: { admin: true, push: true, pull: true } });
  });

  it('updates a pull from a fork with its base for those who may write to the fork, merging or rebasing there', async () => {
    const { ada, bob, base, forkPath } = await forkWithTopic();
    expect((await bob.client.post(`${base}/pulls`, { title: 'Behind', head: `${bob.username}:topic`, base: 'main' })).status).toBe(201);
    const onBase = await ada.client.post(`${base}/contents/base.txt`, { content: b64('base\n'), branch: 'main', message: 'Base moves on' });
    expect(onBase.status).toBe(201);

    // The base's owner may not write to bob's fork; a stranger may not update at all.
    expect((await ada.client.post(`${base}/pulls/1/update`)).status).toBe(403);
    const carol = await e2e.newWriter({ scopes: SCOPES });
    expect((await carol.client.post(`${base}/pulls/1/update`)).status).toBe(403);

    expect((await bob.client.post(`${base}/pulls/1/update`)).status).toBe(200);
    const branch = await e2e.anonymous.get(`${forkPath}/branches/topic`);
    expect(branch.body.commit.message).toBe(`Merge branch 'main' into topic\n`);
    expect((await e2e.anonymous.get(`${forkPath}/contents/base.txt?ref=topic`)).status).toBe(200);
    // The pull follows its new head like any push to the fork's branch: its commits show the merge.
    await eventually(() => e2e.anonymous.get(`${base}/pulls/1`), (r) => r.body.head?.sha === branch.body.commit.id, 'the pull following the merge');
    const commits = await e2e.anonymous.get(`${base}/pulls/1/commits`);
    expect(commits.body[0].sha).toBe(branch.body.commit.id);

    const again = await ada.client.post(`${base}/contents/later.txt`, { content: b64('later\n'), branch: 'main', message: 'Later' });
    expect(again.status).toBe(201);
    expect((await bob.client.post(`${base}/pulls/1/update?style=rebase`)).status).toBe(200);
    const rebased = await e2e.anonymous.get(`${forkPath}/branches/topic`);
    expect(rebased.body.commit.message).not.toMatch(/^Merge branch/);
    const onTop = await e2e.anonymous.get(`${forkPath}/commits?sha=topic&limit=50`);
    expect(onTop.body.map((c: { sha: string }) => c.sha)).toContain(again.body.commit.sha);
    await eventually(() => e2e.anonymous.get(`${base}/pulls/1`), (r) => r.body.head?.sha === rebased.body.commit.id, 'the pull following the rebase');
  });

  it('keeps reporting the head after the fork\'s branch and then the whole fork are deleted', async () => {
    const { bob, base, forkPath, topicSha } = await forkWithTopic();
    expect((await bob.client.post(`${base}/pulls`, { title: 'Short-lived', head: `${bob.username}:topic`, base: 'main' })).status).toBe(201);

    expect((await bob.client.delete(`${forkPath}/branches/topic`)).status).toBe(204);
    const afterBranch = await e2e.anonymous.get(`${base}/pulls/1`);
    expect(afterBranch.status).toBe(200);
    expect(afterBranch.body.head).toMatchObject({ ref: 'topic', sha: topicSha, label: `${bob.username}:topic`, repo: { full_name: forkPath.slice(7) } });

    expect((await bob.client.delete(forkPath)).status).toBe(204);
    const afterFork = await e2e.anonymous.get(`${base}/pulls/1`);
    expect(afterFork.status).toBe(200);
    expect(afterFork.body.head).toMatchObject({ ref: 'topic', sha: topicSha, label: `${bob.username}:topic`, repo: null });
    const listed = await e2e.anonymous.get(`${base}/pulls?state=all`);
    expect(listed.status).toBe(200);
    expect(listed.body[0].head.repo).toBeNull();
    expect((await e2e.anonymous.get(`${base}/pulls/1.diff`)).status).toBe(200);
    expect((await e2e.anonymous.get(base)).body.forks_count).toBe(0);
  });
});
