// Pull requests through the gateway with real git behind them: opening one from a branch,
// reading and listing it, its diff, files and commits, and the bad requests Gitea refuses.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { bootE2e, type E2e, type Writer } from '../support/e2e.js';
import { eventually } from '../support/eventually.js';

jest.setTimeout(120_000);

let e2e: E2e;

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'pr-user', events: 'collaboration' });
}, 180_000);

afterAll(() => e2e?.close());

const SCOPES = ['write:repository', 'write:issue', 'write:user'];
const b64 = (s: string) => Buffer.from(s).toString('base64');

/** A repository with a README on main and a `topic` branch adding one file. */
async function repoWithTopic(owner: Writer): Promise<string> {
  const name = e2e.users.unique('pulls-');
  expect((await owner.client.post('/user/repos', { name, auto_init: true })).status).toBe(201);
  const base = `/repos/${owner.username}/${name}`;
  const made = await owner.client.post(`${base}/contents/feature.txt`, { content: b64('one\ntwo\n'), new_branch: 'topic', message: 'Add feature' });
  expect(made.status).toBe(201);
  return base;
}

describe('opening a pull request', () => {
  it('opens a pull from a branch that shares the issues\' numbers and publishes one opened event', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const base = await repoWithTopic(owner);
    expect((await owner.client.post(`${base}/issues`, { title: 'First an issue' })).status).toBe(201);
    const label = await owner.client.post(`${base}/labels`, { name: 'feature', color: '#00aabb' });

    const res = await owner.client.post(`${base}/pulls`, {
      title: 'Add the feature', body: 'Please merge', head: 'topic', base: 'main', labels: [label.body.id], assignees: [owner.username],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      number: 2, title: 'Add the feature', state: 'open', merged: false, mergeable: true,
      additions: 2, deletions: 0, changed_files: 1,
      head: { ref: 'topic', label: 'topic' }, base: { ref: 'main' },
      labels: [{ name: 'feature' }], assignees: [{ login: owner.username }],
    });
    expect(res.body.head.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(res.body.diff_url).toMatch(/\/pulls\/2\.diff$/);

    const opened = await e2e.recorder.eventMatching((e) => e.subject === 'collaboration.pull_request.opened' && e.payload.pull_request?.issue?.title === 'Add the feature');
    expect(opened.payload.pull_request.head_branch).toBe('topic');
    expect(e2e.recorder.events.filter((e) => e.payload.pull_request?.issue?.title === 'Add the feature')).toHaveLength(1);

    const read = await e2e.anonymous.get(`${base}/pulls/2`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ number: 2, head: { sha: res.body.head.sha } });
    expect((await e2e.anonymous.get(`${base}/pulls/main/topic`)).body).toMatchObject({ number: 2 });
    expect((await e2e.anonymous.get(`${base}/pulls/1`)).status).toBe(404);

    const list = await e2e.anonymous.get(`${base}/pulls?state=open`);
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe('1');
    expect(list.body.map((p: { number: number }) => p.number)).toEqual([2]);
    expect((await e2e.anonymous.get(`${base}/pulls?state=closed`)).body).toEqual([]);
    expect((await e2e.anonymous.get(`${base}/pulls?labels=${label.body.id}`)).body).toHaveLength(1);
    expect((await e2e.anonymous.get(`${base}/pulls?poster=${owner.username}`)).body).toHaveLength(1);

    const asIssues = await e2e.anonymous.get(`${base}/issues?type=pulls`);
    expect(asIssues.body.map((i: { number: number }) => i.number)).toEqual([2]);
  });

  it('refuses a head equal to the base, an unknown head, another owner\'s head and a duplicate open pull', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const base = await repoWithTopic(owner);
    expect((await owner.client.post(`${base}/pulls`, { title: 't', head: 'main', base: 'main' })).status).toBe(422);
    const unknown = await owner.client.post(`${base}/pulls`, { title: 't', head: 'nope', base: 'main' });
    expect(unknown.status).toBe(404);
    expect((await owner.client.post(`${base}/pulls`, { title: 't', head: 'topic', base: 'nope' })).status).toBe(404);
    expect((await owner.client.post(`${base}/pulls`, { title: 't', head: 'someone-else:topic', base: 'main' })).status).toBe(404);
    expect((await owner.client.post(`${base}/pulls`, { title: 't', head: `${owner.username}:topic`, base: 'main' })).status).toBe(201);
    expect((await owner.client.post(`${base}/pulls`, { title: 'again', head: 'topic', base: 'main' })).status).toBe(409);
    expect((await owner.client.get(`${base}/pulls`)).body).toHaveLength(1);
  });

  it('edits the title, body and state of a pull', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const base = await repoWithTopic(owner);
    expect((await owner.client.post(`${base}/pulls`, { title: 'Draft title', head: 'topic', base: 'main' })).status).toBe(201);
    const edited = await owner.client.patch(`${base}/pulls/1`, { title: 'Better title', body: 'Now with a body', state: 'closed' });
    expect(edited.status).toBe(201);
    expect(edited.body).toMatchObject({ title: 'Better title', body: 'Now with a body', state: 'closed', merged: false });
    expect((await owner.client.get(`${base}/pulls?state=closed`)).body).toHaveLength(1);
  });
});

describe('a work-in-progress pull request', () => {
  it('is a draft that does not report itself mergeable until its title drops the prefix', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const base = await repoWithTopic(owner);
    const opened = await owner.client.post(`${base}/pulls`, { title: 'WIP: new parser', head: 'topic', base: 'main' });
    expect(opened.body).toMatchObject({ draft: true, mergeable: false });
    expect((await owner.client.get(`${base}/pulls`)).body[0]).toMatchObject({ draft: true, mergeable: false, requested_reviewers: [], review_comments: 0 });
    expect((await owner.client.patch(`${base}/pulls/1`, { title: 'New parser' })).body).toMatchObject({ draft: false, mergeable: true });
  });
});

describe('the base a pull request shows', () => {
  it('reports the base branch\'s head as base.sha, following pushes to the base', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const base = await repoWithTopic(owner);
    const mainHead = async () => (await owner.client.get(`${base}/branches/main`)).body.commit.id as string;
    const opened = await owner.client.post(`${base}/pulls`, { title: 'Feature', head: 'topic', base: 'main' });
    expect(opened.body.base.sha).toBe(await mainHead());
    const moved = await owner.client.post(`${base}/contents/other.txt`, { content: b64('other\n'), branch: 'main', message: 'Move main' });
    expect(moved.status).toBe(201);
    const listed = await eventually(() => owner.client.get(`${base}/pulls`), (r) => r.body[0]?.base.sha === moved.body.commit.sha, 'base.sha follows the push');
    expect(listed.body[0].base).toMatchObject({ ref: 'main', sha: await mainHead() });
  });
});

describe('editing a pull request', () => {
  it('sets labels of the repository and of its organization, assignees, milestone and due date', async () => {
    const owner = await e2e.newWriter({ scopes: [...SCOPES, 'write:organization'] });
    const org = e2e.users.unique('pr-org-');
    expect((await owner.client.post('/orgs', { username: org })).status).toBe(201);
    const name = e2e.users.unique('pulls-');
    expect((await owner.client.post(`/orgs/${org}/repos`, { name, auto_init: true })).status).toBe(201);
    const base = `/repos/${org}/${name}`;
    expect((await owner.client.post(`${base}/contents/feature.txt`, { content: b64('one\n'), new_branch: 'topic', message: 'Add feature' })).status).toBe(201);
    const orgLabel = (await owner.client.post(`/orgs/${org}/labels`, { name: 'team', color: '#336699' })).body;
    const repoLabel = (await owner.client.post(`${base}/labels`, { name: 'bug', color: '#ff0000' })).body;
    const milestone = (await owner.client.post(`${base}/milestones`, { title: 'v1' })).body;
    expect((await owner.client.post(`${base}/pulls`, { title: 'Feature', head: 'topic', base: 'main', labels: [orgLabel.id] })).status).toBe(201);

    const edited = await owner.client.patch(`${base}/pulls/1`, {
      labels: [repoLabel.id, orgLabel.id], assignees: [owner.username], milestone: milestone.id, due_date: '2030-01-02T00:00:00Z',
    });
    expect(edited.status).toBe(201);
    expect(edited.body.labels.map((l: { name: string }) => l.name).sort()).toEqual(['bug', 'team']);
    expect(edited.body).toMatchObject({ assignees: [{ login: owner.username }], milestone: { id: milestone.id }, due_date: '2030-01-02T00:00:00Z' });
    await e2e.recorder.eventMatching((e) => e.subject.endsWith('.label_updated') && JSON.stringify(e.payload).includes(`"${repoLabel.name}"`) && JSON.stringify(e.payload).includes(name));

    // Replacing with the organization's label alone drops the repository's; an unknown label is 422 and changes nothing.
    expect((await owner.client.patch(`${base}/pulls/1`, { labels: [orgLabel.id] })).body.labels.map((l: { id: number }) => l.id)).toEqual([orgLabel.id]);
    expect((await owner.client.patch(`${base}/pulls/1`, { labels: [99999999] })).status).toBe(422);
    expect((await owner.client.get(`${base}/pulls/1`)).body.labels.map((l: { id: number }) => l.id)).toEqual([orgLabel.id]);
    expect((await owner.client.patch(`${base}/pulls/1`, { labels: [], unset_due_date: true })).body).toMatchObject({ labels: [], due_date: null });
  });

  it('ignores labels from a caller who may not write, as Gitea does', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const other = await e2e.newWriter({ scopes: SCOPES });
    const base = await repoWithTopic(owner);
    const label = (await owner.client.post(`${base}/labels`, { name: 'bug', color: '#ff0000' })).body;
    expect((await other.client.post(`${base}/pulls`, { title: 'From a reader', head: 'topic', base: 'main' })).status).toBe(201);
    const edited = await other.client.patch(`${base}/pulls/1`, { title: 'Renamed by its poster', labels: [label.id] });
    expect(edited.status).toBe(201);
    expect(edited.body).toMatchObject({ title: 'Renamed by its poster', labels: [] });
  });
});

describe('changing the base of a pull request', () => {
  it('moves a pull to another base, checking it again, and refuses a base that does not exist', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const base = await repoWithTopic(owner);
    expect((await owner.client.post(`${base}/branches`, { new_branch_name: 'release', old_branch_name: 'main' })).status).toBe(201);
    expect((await owner.client.post(`${base}/contents/release.txt`, { content: b64('r\n'), branch: 'release', message: 'Release note' })).status).toBe(201);
    expect((await owner.client.post(`${base}/pulls`, { title: 'Feature', head: 'topic', base: 'main' })).status).toBe(201);
    expect((await owner.client.patch(`${base}/pulls/1`, { base: 'nope' })).status).toBe(404);
    const moved = await owner.client.patch(`${base}/pulls/1`, { base: 'release' });
    expect(moved.status).toBe(201);
    expect(moved.body).toMatchObject({ base: { ref: 'release' }, mergeable: true, changed_files: 1 });
    expect((await owner.client.get(`${base}/pulls/release/topic`)).body).toMatchObject({ number: 1 });
  });

  it('is refused to the poster of the pull when they may only read, with Gitea\'s message, and nothing moves', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const poster = await e2e.newWriter({ scopes: SCOPES });
    const base = await repoWithTopic(owner);
    expect((await owner.client.post(`${base}/branches`, { new_branch_name: 'release', old_branch_name: 'main' })).status).toBe(201);
    expect((await poster.client.post(`${base}/pulls`, { title: 'From a reader', head: 'topic', base: 'main' })).status).toBe(201);
    const refused = await poster.client.patch(`${base}/pulls/1`, { title: 'Retitled', base: 'release' });
    expect([refused.status, refused.body.message]).toEqual([403, 'user should have a permission to write to a repo']);
    expect((await owner.client.get(`${base}/pulls/1`)).body).toMatchObject({ title: 'From a reader', base: { ref: 'main' } });
  });
});

describe('what a pull request changes', () => {
  it('serves its diff and patch as plain text, its files and its commits', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const base = await repoWithTopic(owner);
    expect((await owner.client.post(`${base}/pulls`, { title: 'Feature', head: 'topic', base: 'main' })).status).toBe(201);

    const diff = await owner.client.get(`${base}/pulls/1.diff`);
    expect(diff.status).toBe(200);
    expect(diff.headers.get('content-type')).toContain('text/plain');
    expect(diff.text).toContain('+++ b/feature.txt');
    const patch = await owner.client.get(`${base}/pulls/1.patch`);
    expect(patch.text).toContain('Subject: [PATCH] Add feature');

    const files = await owner.client.get(`${base}/pulls/1/files`);
    expect(files.status).toBe(200);
    expect(files.headers.get('x-total-count')).toBe('1');
    expect(files.body).toEqual([expect.objectContaining({ filename: 'feature.txt', status: 'added', additions: 2, deletions: 0, changes: 2 })]);

    const commits = await owner.client.get(`${base}/pulls/1/commits`);
    expect(commits.status).toBe(200);
    expect(commits.body.map((c: { commit: { message: string } }) => c.commit.message.trim())).toEqual(['Add feature']);
  });
});

describe('pushes to a pull request\'s branches', () => {
  it('follows a push to the head: new head, totals and a synchronized event', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const base = await repoWithTopic(owner);
    const opened = await owner.client.post(`${base}/pulls`, { title: 'Grows', head: 'topic', base: 'main' });
    const more = await owner.client.post(`${base}/contents/more.txt`, { content: b64('a\nb\nc\n'), branch: 'topic', message: 'More' });
    expect(more.status).toBe(201);
    const synchronized = await e2e.recorder.eventMatching((e) => e.subject === 'collaboration.pull_request.synchronized' && e.payload.pull_request?.issue?.id === opened.body.id);
    // The push's owner and sender as identity describes them reach the event (its webhook payload shows them).
    expect(synchronized.payload).toMatchObject({ repository_owner: { login: owner.username }, sender: { login: owner.username, created_at: expect.anything() } });
    const read = await owner.client.get(`${base}/pulls/1`);
    expect(read.body).toMatchObject({ head: { sha: more.body.commit.sha }, additions: 5, changed_files: 2, mergeable: true });
  });

  it('turns a pull unmergeable when its base changes the same file, and leaves another pull on that base as it was', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const base = await repoWithTopic(owner);
    expect((await owner.client.post(`${base}/contents/other.txt`, { content: b64('x\n'), new_branch: 'other', message: 'Add other' })).status).toBe(201);
    expect((await owner.client.post(`${base}/pulls`, { title: 'Feature', head: 'topic', base: 'main' })).status).toBe(201);
    expect((await owner.client.post(`${base}/pulls`, { title: 'Other', head: 'other', base: 'main' })).status).toBe(201);
    const moved = await owner.client.post(`${base}/contents/feature.txt`, { content: b64('main\n'), message: 'Main has its own feature' });
    expect(moved.status).toBe(201);
    const conflicted = await eventually(() => owner.client.get(`${base}/pulls/1`), (r) => r.body.mergeable === false, 'the feature pull turns unmergeable');
    expect(conflicted.body.base.sha).toBe(moved.body.commit.sha);
    expect((await owner.client.get(`${base}/pulls/2`)).body).toMatchObject({ mergeable: true, changed_files: 1, additions: 1, base: { sha: moved.body.commit.sha } });
  });

  it('marks a pull merged when its head reaches the base by a push, and keeps its head after the branch is deleted', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const base = await repoWithTopic(owner);
    const opened = await owner.client.post(`${base}/pulls`, { title: 'By hand', head: 'topic', base: 'main' });
    expect((await owner.client.put(`${base}/branches/main`, { new_commit_id: opened.body.head.sha })).status).toBe(204);
    await e2e.recorder.eventMatching((e) => e.subject === 'collaboration.pull_request.closed' && e.payload.pull_request?.issue?.id === opened.body.id);
    expect((await owner.client.delete(`${base}/branches/topic`)).status).toBe(204);
    const read = await owner.client.get(`${base}/pulls/1`);
    expect(read.body).toMatchObject({ state: 'closed', merged: true, head: { ref: 'topic', sha: opened.body.head.sha } });
    expect((await owner.client.get(`${base}/pulls/1/merge`)).status).toBe(204);
    expect((await owner.client.get(`${base}/pulls/1.diff`)).text).toContain('+++ b/feature.txt');
  });
});
