// The Repository JSON tells the truth: every field Gitea computes is computed here too, from
// what the repository service stores (merge settings, topics, branches, licenses), never a
// constant standing in for it.
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { TestUser } from '../support/accounts.js';
import type { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e } from '../support/e2e.js';
import { eventually } from '../support/eventually.js';
import { cloneUrl, gitIn } from '../support/git-cli.js';

jest.setTimeout(90_000);

let e2e: E2e;
let anonymous: ApiClient;
let owner: TestUser;

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'json-user', gitHome: true });
  ({ anonymous } = e2e);
  owner = await e2e.users.newUser();
}, 180_000);

afterAll(() => e2e?.close());

async function newRepository(name: string, options: Record<string, unknown> = {}) {
  const res = await owner.client.post('/user/repos', { name, ...options });
  expect(res.status).toBe(201);
  return res.body;
}

describe('units', () => {
  test('a unit Anvil has not built is not advertised, even when enabled; issues and pull requests report their stored settings', async () => {
    await newRepository('units');
    const edited = await owner.client.patch(`/repos/${owner.username}/units`, { has_wiki: true, has_releases: true, has_issues: false });
    expect(edited.body).toMatchObject({
      has_wiki: false, has_projects: false, has_releases: false, has_packages: false, has_actions: false,
      has_issues: false, has_pull_requests: true, has_code: true,
    });
  });

  test('a public repository of a private organization is internal', async () => {
    const org = e2e.users.unique('json-org');
    expect((await owner.client.post('/orgs', { username: org, visibility: 'private' })).status).toBe(201);
    await e2e.users.eventually(() => owner.client.post(`/orgs/${org}/repos`, { name: 'inside' }), 201);
    expect((await owner.client.get(`/repos/${org}/inside`)).body).toMatchObject({ private: false, internal: true });
    expect((await newRepository('outside')).internal).toBe(false);
  });
});

describe('merge settings', () => {
  test('a new repository reports Gitea\'s defaults for its pull request unit', async () => {
    const repo = await newRepository('defaults');
    expect(repo).toMatchObject({
      has_pull_requests: true, allow_merge_commits: true, allow_rebase: true, allow_rebase_explicit: true,
      allow_squash_merge: true, allow_fast_forward_only_merge: true, allow_rebase_update: true, allow_manual_merge: false,
      autodetect_manual_merge: false, default_delete_branch_after_merge: false, default_merge_style: 'merge',
      default_allow_maintainer_edit: false, ignore_whitespace_conflicts: false,
    });
  });

  test('PATCH stores them, reports them, and keeps them across reads', async () => {
    await newRepository('merging');
    const path = `/repos/${owner.username}/merging`;
    const edited = await owner.client.patch(path, {
      has_pull_requests: true, allow_merge_commits: false, allow_rebase: false, allow_manual_merge: true,
      autodetect_manual_merge: true, default_delete_branch_after_merge: true, default_merge_style: 'squash',
      default_allow_maintainer_edit: true, ignore_whitespace_conflicts: true,
    });
    expect(edited.status).toBe(200);
    const expected = {
      allow_merge_commits: false, allow_rebase: false, allow_squash_merge: true, allow_manual_merge: true,
      autodetect_manual_merge: true, default_delete_branch_after_merge: true, default_merge_style: 'squash',
      default_allow_maintainer_edit: true, ignore_whitespace_conflicts: true,
    };
    expect(edited.body).toMatchObject(expected);
    expect((await anonymous.get(path)).body).toMatchObject(expected);
  });

  test('an edit that leaves pull requests off does not touch them, as Gitea does', async () => {
    await newRepository('untouched');
    const path = `/repos/${owner.username}/untouched`;
    expect((await owner.client.patch(path, { allow_rebase: false })).body.allow_rebase).toBe(false);
    expect((await owner.client.patch(path, { has_pull_requests: false, allow_squash_merge: false })).status).toBe(200);
    const back = await owner.client.patch(path, { has_pull_requests: true });
    expect(back.body).toMatchObject({ allow_rebase: false, allow_squash_merge: true });
  });

  test('a repository with pull requests off reports every merge style refused', async () => {
    await newRepository('no-pulls');
    const res = await owner.client.patch(`/repos/${owner.username}/no-pulls`, { has_pull_requests: false });
    expect(res.body).toMatchObject({ has_pull_requests: false, allow_merge_commits: false, allow_rebase: false, allow_squash_merge: false, default_merge_style: 'merge' });
    const back = await owner.client.patch(`/repos/${owner.username}/no-pulls`, { has_pull_requests: true });
    expect(back.body).toMatchObject({ has_pull_requests: true, allow_merge_commits: true, allow_squash_merge: true });
  });

  test('an unknown merge style is 422 naming the field, and nothing changes', async () => {
    await newRepository('styles');
    const path = `/repos/${owner.username}/styles`;
    const res = await owner.client.patch(path, { has_pull_requests: true, default_merge_style: 'octopus', allow_rebase: false });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/^\[default_merge_style\]: must be one of merge, rebase, rebase-merge, squash/);
    expect((await owner.client.get(path)).body).toMatchObject({ default_merge_style: 'merge', allow_rebase: true });
  });
});

describe('topics', () => {
  test('PUT replaces them normalised and sorted; the repository JSON and GET /topics report them', async () => {
    await newRepository('topical');
    const path = `/repos/${owner.username}/topical`;
    expect((await owner.client.put(`${path}/topics`, { topics: ['Rust', ' web ', 'rust', 'cli-tools', ''] })).status).toBe(204);
    const listed = await anonymous.get(`${path}/topics`);
    expect(listed.body).toEqual({ topics: ['cli-tools', 'rust', 'web'] });
    expect(listed.headers.get('x-total-count')).toBe('3');
    expect((await anonymous.get(path)).body.topics).toEqual(['cli-tools', 'rust', 'web']);
  });

  test('PUT /topics/{topic} adds one and DELETE removes it; removing one the repository lacks is 404', async () => {
    await newRepository('one-by-one');
    const path = `/repos/${owner.username}/one-by-one/topics`;
    expect((await owner.client.put(`${path}/Go`)).status).toBe(204);
    expect((await owner.client.put(`${path}/go`)).status).toBe(204);
    expect((await owner.client.put(`${path}/api`)).status).toBe(204);
    expect((await owner.client.get(path)).body.topics).toEqual(['api', 'go']);
    expect((await owner.client.delete(`${path}/go`)).status).toBe(204);
    expect((await owner.client.get(path)).body.topics).toEqual(['api']);
    expect((await owner.client.delete(`${path}/go`)).status).toBe(404);
  });

  test('invalid names are 422 listing them, and nothing changes', async () => {
    await newRepository('picky');
    const path = `/repos/${owner.username}/picky/topics`;
    expect((await owner.client.put(path, { topics: ['kept'] })).status).toBe(204);
    const refused = await owner.client.put(path, { topics: ['fine', '-dash-first', 'has space', 'x'.repeat(36)] });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ invalidTopics: ['-dash-first', 'has space', 'x'.repeat(36)], message: 'Topic names are invalid' });
    const one = await owner.client.put(`${path}/_nope`);
    expect([one.status, one.body.invalidTopics]).toEqual([422, ['_nope']]);
    const tooMany = await owner.client.put(path, { topics: Array.from({ length: 26 }, (_, i) => `t${i}`) });
    expect([tooMany.status, tooMany.body.message]).toEqual([422, 'Exceeding maximum number of topics per repo']);
    expect((await owner.client.get(path)).body.topics).toEqual(['kept']);
  });

  test('only the repository\'s admins change them', async () => {
    await newRepository('guarded');
    const stranger = await e2e.users.newUser();
    const res = await stranger.client.undeclared('PUT', `/repos/${owner.username}/guarded/topics`, { topics: ['mine'] });
    expect(res.status).toBe(403);
    expect((await anonymous.put(`/repos/${owner.username}/guarded/topics`, { topics: ['mine'] })).status).toBe(401);
  });

  test('GET /topics/search finds topics in use by keyword, most used first, with their counts', async () => {
    const unique = `kw${Date.now() % 100000}`;
    await newRepository('search-a');
    await newRepository('search-b');
    await owner.client.put(`/repos/${owner.username}/search-a/topics`, { topics: [`${unique}-rare`, `${unique}-common`] });
    await owner.client.put(`/repos/${owner.username}/search-b/topics`, { topics: [`${unique}-common`] });
    const found = await anonymous.get(`/topics/search?q=${unique}`);
    expect(found.status).toBe(200);
    expect(found.body.topics.map((t: { topic_name: string; repo_count: number }) => [t.topic_name, t.repo_count]))
      .toEqual([[`${unique}-common`, 2], [`${unique}-rare`, 1]]);
    expect(found.body.topics[0]).toEqual(expect.objectContaining({ id: expect.any(Number), created: expect.any(String), updated: expect.any(String) }));
    // A topic no repository has any more is not offered.
    await owner.client.delete(`/repos/${owner.username}/search-a/topics/${unique}-rare`);
    expect((await anonymous.get(`/topics/search?q=${unique}`)).body.topics.map((t: { topic_name: string }) => t.topic_name)).toEqual([`${unique}-common`]);
  });
});

describe('issue and pull counters', () => {
  test('open_issues_count and open_pr_counter follow issues and pulls opened, closed, reopened, merged and deleted', async () => {
    const writer = await e2e.newWriter({ scopes: ['write:repository', 'write:issue', 'write:user'] });
    expect((await writer.client.post('/user/repos', { name: 'counted', auto_init: true })).status).toBe(201);
    const path = `/repos/${writer.username}/counted`;
    const counters = async () => {
      const body = (await anonymous.get(path)).body;
      return [body.open_issues_count, body.open_pr_counter] as [number, number];
    };
    const expectCounters = async (wanted: [number, number]) => {
      expect(await eventually(counters, (got) => got[0] === wanted[0] && got[1] === wanted[1], `counters ${wanted.join('/')}`)).toEqual(wanted);
    };
    await expectCounters([0, 0]);

    expect((await writer.client.post(`${path}/issues`, { title: 'one' })).status).toBe(201);
    expect((await writer.client.post(`${path}/issues`, { title: 'two' })).status).toBe(201);
    // Created closed: counted among the closed ones from the start.
    expect((await writer.client.post(`${path}/issues`, { title: 'three', closed: true })).status).toBe(201);
    await expectCounters([2, 0]);
    expect((await writer.client.patch(`${path}/issues/1`, { state: 'closed' })).status).toBe(201);
    await expectCounters([1, 0]);
    expect((await writer.client.patch(`${path}/issues/1`, { state: 'open' })).status).toBe(201);
    await expectCounters([2, 0]);
    expect((await writer.client.delete(`${path}/issues/2`)).status).toBe(204);
    await expectCounters([1, 0]);

    const content = Buffer.from('feature\n').toString('base64');
    expect((await writer.client.post(`${path}/contents/a.txt`, { content, new_branch: 'a' })).status).toBe(201);
    expect((await writer.client.post(`${path}/contents/b.txt`, { content, new_branch: 'b' })).status).toBe(201);
    expect((await writer.client.post(`${path}/pulls`, { title: 'pull a', head: 'a', base: 'main' })).status).toBe(201);
    expect((await writer.client.post(`${path}/pulls`, { title: 'pull b', head: 'b', base: 'main' })).status).toBe(201);
    await expectCounters([1, 2]);
    expect((await writer.client.patch(`${path}/pulls/4`, { state: 'closed' })).status).toBe(201);
    await expectCounters([1, 1]);
    expect((await writer.client.patch(`${path}/pulls/4`, { state: 'open' })).status).toBe(201);
    await expectCounters([1, 2]);
    expect((await writer.client.post(`${path}/pulls/5/merge`, { do: 'merge' })).status).toBe(200);
    await expectCounters([1, 1]);
  });
});

describe('facts read from git', () => {
  test('branch_count is exact right after each branch creation, deletion and push', async () => {
    const writer = await e2e.newWriter();
    expect((await writer.client.post('/user/repos', { name: 'branchy', auto_init: true })).status).toBe(201);
    const path = `/repos/${writer.username}/branchy`;
    const count = async () => (await writer.client.get(path)).body.branch_count as number;
    expect(await count()).toBe(1);
    expect((await writer.client.post(`${path}/branches`, { new_branch_name: 'feature' })).status).toBe(201);
    expect(await count()).toBe(2);
    expect((await writer.client.delete(`${path}/branches/feature`)).status).toBe(204);
    expect(await count()).toBe(1);

    const dir = await mkdtemp(join(e2e.home, 'branchy-'));
    const remote = cloneUrl(e2e.system.baseUrl, `${writer.username}/branchy.git`, writer.username, writer.token);
    expect((await gitIn(e2e.home, ['clone', remote, 'work'], dir)).code).toBe(0);
    const work = join(dir, 'work');
    expect((await gitIn(e2e.home, ['push', 'origin', 'HEAD:refs/heads/one', 'HEAD:refs/heads/two'], work)).code).toBe(0);
    expect(await count()).toBe(3);
    expect((await gitIn(e2e.home, ['push', 'origin', '--delete', 'one'], work)).code).toBe(0);
    expect(await count()).toBe(2);
  });

  test('an empty repository has no branches and no licenses', async () => {
    const repo = await newRepository('hollow');
    expect(repo).toMatchObject({ branch_count: 0, licenses: [] });
    expect((await anonymous.get(`/repos/${owner.username}/hollow/licenses`)).body).toEqual([]);
  });

  test('licenses names the SPDX ids of the default branch\'s license files, in the JSON and GET /licenses', async () => {
    await newRepository('licensed', { auto_init: true, license: 'MIT' });
    const path = `/repos/${owner.username}/licensed`;
    const json = await eventually(async () => (await anonymous.get(path)).body, (body) => body.licenses.length > 0, 'licenses detected');
    expect(json.licenses).toEqual(['MIT']);
    expect((await anonymous.get(`${path}/licenses`)).body).toEqual(['MIT']);
    // A second license file, written through the contents API, is found too.
    const apache = await owner.client.post(`${path}/contents/COPYING`, { content: Buffer.from('SPDX-License-Identifier: Apache-2.0\n').toString('base64') });
    expect(apache.status).toBe(201);
    const both = await eventually(async () => (await anonymous.get(`${path}/licenses`)).body as string[], (ids) => ids.length === 2, 'a second license detected');
    expect(both).toEqual(['Apache-2.0', 'MIT']);
    // A push that touches no license file leaves them; one that removes a license file is seen.
    expect((await owner.client.post(`${path}/contents/docs/notes.md`, { content: Buffer.from('notes\n').toString('base64') })).status).toBe(201);
    const sha = (await owner.client.get(`${path}/contents/COPYING`)).body.sha;
    expect((await owner.client.delete(`${path}/contents/COPYING`, { sha })).status).toBe(200);
    const left = await eventually(async () => (await anonymous.get(`${path}/licenses`)).body as string[], (ids) => ids.length === 1, 'the removed license gone');
    expect(left).toEqual(['MIT']);
  });
});
