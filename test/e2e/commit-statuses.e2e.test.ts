// Commit statuses through the gateway, on repositories filled by `git push`: set by sha and
// read by branch, tag or sha, the combined state of the latest status per context, who may
// set and see them, and the `status` event a webhook will be built from.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e } from '../support/e2e.js';
import type { EventRecorder } from '../support/event-recorder.js';
import { cloneUrl, gitIn } from '../support/git-cli.js';
import type { RunningSystem } from '../support/system.js';

jest.setTimeout(120_000);

let e2e: E2e;
let system: RunningSystem;
let anonymous: ApiClient;
let home: string;
let recorder: EventRecorder;
const git = (args: string[], cwd = home) => gitIn(home, args, cwd);
/** `{ROOT_URL}api/v1`, as the URLs in the JSON spell it. */
const apiRoot = () => `${system.baseUrl.replace(/\/+$/, '')}/api/v1`;

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'st-user', gitHome: true, events: 'repository' });
  ({ system, anonymous, home, recorder } = e2e);
}, 180_000);

afterAll(() => e2e?.close());

/** A fresh user known to the repository service, with a token that may write repositories. */
const newUser = () => e2e.newWriter();

/** An empty repository filled by `git push`: two commits on main, the first tagged v1. Returns both shas. */
async function pushedRepository(owner: Awaited<ReturnType<typeof newUser>>, name: string, options: { private?: boolean } = {}) {
  expect((await owner.client.post('/user/repos', { name, private: options.private ?? false })).status).toBe(201);
  const work = await mkdtemp(join(home, `${name}-`));
  expect((await git(['init', '.'], work)).code).toBe(0);
  const shas: string[] = [];
  for (const n of [1, 2]) {
    await writeFile(join(work, 'file.txt'), `version ${n}\n`);
    expect((await git(['add', 'file.txt'], work)).code).toBe(0);
    expect((await git(['commit', '-m', `Version ${n}`], work)).code).toBe(0);
    shas.push((await git(['rev-parse', 'HEAD'], work)).stdout.trim());
    if (n === 1) expect((await git(['tag', 'v1'], work)).code).toBe(0);
  }
  const remote = cloneUrl(system.baseUrl, `${owner.username}/${name}.git`, owner.username, owner.token);
  const push = await git(['push', remote, 'HEAD:refs/heads/main', 'refs/tags/v1'], work);
  expect(push.code).toBe(0);
  return { first: shas[0], head: shas[1], base: `/repos/${owner.username}/${name}` };
}

describe('commit statuses', () => {
  test('statuses set by sha are read by branch, numbered per commit, newest first', async () => {
    const owner = await newUser();
    const { head, base } = await pushedRepository(owner, 'ci');

    const build = await owner.client.post(`${base}/statuses/${head}`, { state: 'pending', context: 'ci/build', target_url: 'https://ci.example/1', description: 'Building' });
    expect(build.status).toBe(201);
    expect(build.body).toMatchObject({
      id: 1, status: 'pending', context: 'ci/build', target_url: 'https://ci.example/1', description: 'Building',
      url: `${apiRoot()}${base}/statuses/${head}`, creator: { login: owner.username },
    });
    expect((await owner.client.post(`${base}/statuses/${head}`, { state: 'success', context: 'ci/test' })).body.id).toBe(2);
    // A status without a context gets "default"; the next index follows whatever the context.
    const unnamed = await owner.client.post(`${base}/statuses/${head}`, { state: 'success' });
    expect(unnamed.body).toMatchObject({ id: 3, context: 'default' });

    const byBranch = await anonymous.get(`${base}/commits/main/statuses`);
    expect(byBranch.status).toBe(200);
    expect(byBranch.headers.get('x-total-count')).toBe('3');
    expect(byBranch.body.map((s: { id: number }) => s.id)).toEqual([3, 2, 1]);

    const bySha = await anonymous.get(`${base}/statuses/${head}?sort=oldest&limit=2`);
    expect(bySha.body.map((s: { context: string }) => s.context)).toEqual(['ci/build', 'ci/test']);
    expect(bySha.headers.get('link')).toContain('rel="next"');
    const pending = await anonymous.get(`${base}/statuses/${head}?state=pending`);
    expect(pending.body.map((s: { id: number }) => s.id)).toEqual([1]);

    // An unknown sha has no statuses; an unknown ref is not found.
    const unknown = await anonymous.get(`${base}/statuses/${'0'.repeat(40)}`);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual([]);
    expect((await anonymous.get(`${base}/commits/no-such-branch/statuses`)).status).toBe(404);
  });

  test('the combined state is the worst of the latest status of each context', async () => {
    const owner = await newUser();
    const { first, head, base } = await pushedRepository(owner, 'combined');
    const setStatus = async (context: string, state: string) =>
      expect((await owner.client.post(`${base}/statuses/${head}`, { state, context })).status).toBe(201);

    // A commit with no status yet is pending, with everything else filled in.
    const none = await anonymous.get(`${base}/commits/main/status`);
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ state: 'pending', sha: head, total_count: 0, statuses: [], repository: { full_name: `${owner.username}/combined` } });

    await setStatus('build', 'pending');
    await setStatus('test', 'success');
    expect((await anonymous.get(`${base}/commits/main/status`)).body.state).toBe('pending');

    await setStatus('build', 'success');
    const green = await anonymous.get(`${base}/commits/main/status`);
    expect(green.body).toMatchObject({
      state: 'success', sha: head, total_count: 2,
      commit_url: `${apiRoot()}${base}/commits/${head}`, url: `${apiRoot()}${base}/commits/${head}/status`,
    });
    expect(green.body.statuses.map((s: { context: string; status: string }) => [s.context, s.status])).toEqual([['build', 'success'], ['test', 'success']]);

    await setStatus('lint', 'failure');
    expect((await anonymous.get(`${base}/commits/${head}/status`)).body.state).toBe('failure');
    await setStatus('lint', 'warning');
    expect((await anonymous.get(`${base}/commits/${head.slice(0, 10)}/status`)).body.state).toBe('success');
    await setStatus('deploy', 'error');
    const paged = await anonymous.get(`${base}/commits/main/status?limit=1`);
    expect(paged.body).toMatchObject({ state: 'failure', total_count: 1 });
    expect(paged.headers.get('x-total-count')).toBe('4');

    // The tag names the first commit, whose statuses are its own.
    expect((await owner.client.post(`${base}/statuses/v1`, { state: 'success', context: 'release' })).body).toMatchObject({ id: 1, url: expect.stringContaining(first) });
    expect((await anonymous.get(`${base}/commits/v1/status`)).body).toMatchObject({ state: 'success', sha: first, total_count: 1 });
    expect((await anonymous.get(`${base}/commits/no-such-ref/status`)).status).toBe(404);
  });

  test('setting a status is announced with its commit', async () => {
    const owner = await newUser();
    const { head, base } = await pushedRepository(owner, 'announced');
    const repoId = (await owner.client.get(base)).body.id;
    expect((await owner.client.post(`${base}/statuses/main`, { state: 'failure', context: 'ci', target_url: 'https://ci.example/9', description: 'Broken' })).status).toBe(201);
    const event = await recorder.eventMatching((e) => e.subject === 'repository.status' && e.payload.repository?.id === repoId);
    expect(event.payload).toMatchObject({
      sha: head, context: 'ci', state: 'failure', target_url: 'https://ci.example/9', description: 'Broken', index: 1,
      creator: { login: owner.username }, commit: { id: head, message: 'Version 2\n' },
    });
  });

  test('only writers set statuses; readers see them; a private repository stays hidden', async () => {
    const owner = await newUser();
    const reader = await newUser();
    const { head, base } = await pushedRepository(owner, 'secret', { private: true });
    expect((await owner.client.put(`${base}/collaborators/${reader.username}`, { permission: 'read' })).status).toBe(204);
    expect((await owner.client.post(`${base}/statuses/${head}`, { state: 'success', context: 'ci' })).status).toBe(201);

    // Gitea answers 403 (reqRepoWriter), which its document does not declare for this route.
    const refused = await reader.client.undeclared('POST', `${base}/statuses/${head}`, { state: 'failure', context: 'ci' });
    expect(refused).toMatchObject({ status: 403, message: 'user should have a permission to write to a repo' });
    expect((await reader.client.get(`${base}/commits/main/status`)).body).toMatchObject({ state: 'success', total_count: 1 });

    expect((await anonymous.get(`${base}/statuses/${head}`)).status).toBe(404);
    expect((await anonymous.get(`${base}/commits/main/status`)).status).toBe(404);
    // The repository is resolved before the token is asked for, so a stranger learns nothing.
    expect((await anonymous.post(`${base}/statuses/${head}`, { state: 'success' })).status).toBe(404);
    expect((await reader.client.get(`${base}/statuses/${head}`)).body).toHaveLength(1);
  });

  test('refuses an unknown state and a commit that does not exist, storing nothing', async () => {
    const owner = await newUser();
    const { head, base } = await pushedRepository(owner, 'strict');
    // Gitea's document declares no 422 here, though body validation answers it.
    const badState = await owner.client.undeclared('POST', `${base}/statuses/${head}`, { state: 'done', context: 'ci' });
    expect(badState.status).toBe(422);
    expect(badState.message).toContain('state');
    expect((await owner.client.post(`${base}/statuses/${'f'.repeat(40)}`, { state: 'success' })).status).toBe(404);
    expect((await owner.client.post(`${base}/statuses/no-such-branch`, { state: 'success' })).status).toBe(404);
    expect((await owner.client.get(`${base}/statuses/${head}`)).body).toEqual([]);
  });
});
