// Labels through the gateway: a repository's labels (colours normalised, exclusive scopes,
// archived), labels on issues (added, replaced, removed, cleared, filtered on) and the
// label events webhooks will fire on; who may change them and what bad input gets.
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e, type Writer } from '../support/e2e.js';

jest.setTimeout(120_000);

let e2e: E2e;
let anonymous: ApiClient;

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'lb-user', events: 'collaboration' });
  ({ anonymous } = e2e);
}, 180_000);

afterAll(() => e2e?.close());

const newUser = (): Promise<Writer> => e2e.newWriter({ scopes: ['write:repository', 'write:issue', 'write:user'] });

async function newRepository(owner: Writer, options: { private?: boolean } = {}): Promise<string> {
  const name = e2e.users.unique('labels-');
  expect((await owner.client.post('/user/repos', { name, private: options.private ?? false })).status).toBe(201);
  return `/repos/${owner.username}/${name}`;
}

const names = (labels: Array<{ name: string }>) => labels.map((l) => l.name);

describe('repository labels', () => {
  test('are created, read, listed alphabetically, edited, archived and deleted', async () => {
    const owner = await newUser();
    const base = await newRepository(owner);
    const bug = await owner.client.post(`${base}/labels`, { name: 'bug', color: '#EE0701', description: 'Something is broken' });
    expect(bug.status).toBe(201);
    expect(bug.body).toMatchObject({ name: 'bug', color: 'ee0701', description: 'Something is broken', exclusive: false, is_archived: false });
    expect(bug.body.url).toMatch(new RegExp(`/api/v1${base}/labels/${bug.body.id}$`));
    // Short colours without "#" are what Gitea accepts too.
    expect((await owner.client.post(`${base}/labels`, { name: 'accepted', color: '0f0' })).body.color).toBe('00ff00');

    const listed = await anonymous.get(`${base}/labels`);
    expect(names(listed.body)).toEqual(['accepted', 'bug']);
    expect(listed.headers.get('x-total-count')).toBe('2');
    expect((await anonymous.get(`${base}/labels/${bug.body.id}`)).body.name).toBe('bug');

    const edited = await owner.client.patch(`${base}/labels/${bug.body.id}`, { name: 'kind/bug', exclusive: true, is_archived: true, color: '123456' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'kind/bug', exclusive: true, is_archived: true, color: '123456', description: 'Something is broken' });

    expect((await owner.client.delete(`${base}/labels/${bug.body.id}`)).status).toBe(204);
    expect((await anonymous.get(`${base}/labels/${bug.body.id}`)).status).toBe(404);
    expect((await owner.client.delete(`${base}/labels/${bug.body.id}`)).status).toBe(404);
  });

  test('refuse bad colours and names, and writes by readers, changing nothing', async () => {
    const owner = await newUser();
    const reader = await newUser();
    const base = await newRepository(owner);
    for (const body of [{ name: 'bad', color: 'red' }, { name: 'bad', color: '#12345' }, { name: '', color: '#ffffff' }, { name: 'bad' }]) {
      expect((await owner.client.post(`${base}/labels`, body)).status).toBe(422);
    }
    expect((await reader.client.undeclared('POST', `${base}/labels`, { name: 'mine', color: '#ffffff' })).status).toBe(403);
    expect((await anonymous.get(`${base}/labels`)).body).toEqual([]);
  });

  test('of a private repository are not found for strangers', async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const base = await newRepository(owner, { private: true });
    const label = await owner.client.post(`${base}/labels`, { name: 'secret', color: '#000000' });
    expect((await stranger.client.get(`${base}/labels`)).status).toBe(404);
    expect((await stranger.client.get(`${base}/labels/${label.body.id}`)).status).toBe(404);
    expect((await stranger.client.post(`${base}/labels`, { name: 'x', color: '#000000' })).status).toBe(404);
  });
});

describe('label events', () => {
  test('creating, editing and deleting a label publish its events with the repository and the sender', async () => {
    const owner = await newUser();
    const base = await newRepository(owner);
    const label = (await owner.client.post(`${base}/labels`, { name: 'announced', color: '#112233' })).body;
    const ofLabel = (action: string) => e2e.recorder.eventMatching((e) => e.subject === `collaboration.label.${action}` && e.payload.label?.id === label.id);
    const created = await ofLabel('created');
    expect(created.payload).toMatchObject({
      action: 'created', label: { name: 'announced', color: '#112233' }, repository: { name: base.split('/')[3] }, repository_owner: { login: owner.username },
      sender: { id: owner.id, login: owner.username },
    });
    expect((await owner.client.patch(`${base}/labels/${label.id}`, { name: 'renamed' })).status).toBe(200);
    expect((await ofLabel('edited')).payload).toMatchObject({ label: { name: 'renamed' } });
    expect((await owner.client.delete(`${base}/labels/${label.id}`)).status).toBe(204);
    expect((await ofLabel('deleted')).payload).toMatchObject({ label: { name: 'renamed' }, sender: { login: owner.username } });
  });

  test('an organization label\'s events name the organization', async () => {
    const owner = await newUser();
    const org = e2e.users.unique('org-');
    expect((await owner.client.post('/orgs', { username: org })).status).toBe(201);
    const label = (await owner.client.post(`/orgs/${org}/labels`, { name: 'org-wide', color: '#445566' })).body;
    const event = await e2e.recorder.eventMatching((e) => e.subject === 'collaboration.label.created' && e.payload.label?.id === label.id);
    expect(event.payload).toMatchObject({ organization: { login: org }, sender: { login: owner.username } });
  });
});

describe('labels on issues', () => {
  test('are set on create, added, replaced, removed and cleared, each change announced', async () => {
    const owner = await newUser();
    const base = await newRepository(owner);
    const make = async (name: string, extra: Record<string, unknown> = {}) => (await owner.client.post(`${base}/labels`, { name, color: '#aabbcc', ...extra })).body.id as number;
    const bug = await make('bug');
    const docs = await make('docs');
    const high = await make('priority/high', { exclusive: true });
    const low = await make('priority/low', { exclusive: true });

    const issue = await owner.client.post(`${base}/issues`, { title: 'Labelled', labels: [bug] });
    expect(names(issue.body.labels)).toEqual(['bug']);

    const added = await owner.client.post(`${base}/issues/1/labels`, { labels: [docs, 'priority/high'] });
    expect(added.status).toBe(200);
    expect(names(added.body)).toEqual(['bug', 'docs', 'priority/high']);
    const updated = await e2e.recorder.eventMatching((e) => e.subject === 'collaboration.issue.label_updated' && e.payload.issue?.id === issue.body.id);
    expect(names(updated.payload.added_labels).sort()).toEqual(['docs', 'priority/high']);
    expect(names(updated.payload.issue.labels)).toEqual(['bug', 'docs', 'priority/high']);

    // An exclusive label replaces the other label of its scope.
    expect(names((await owner.client.post(`${base}/issues/1/labels`, { labels: [low] })).body)).toEqual(['bug', 'docs', 'priority/low']);
    expect(high).toBeGreaterThan(0);

    expect(names((await owner.client.put(`${base}/issues/1/labels`, { labels: [docs] })).body)).toEqual(['docs']);
    expect((await owner.client.delete(`${base}/issues/1/labels/${docs}`)).status).toBe(204);
    expect((await anonymous.get(`${base}/issues/1/labels`)).body).toEqual([]);
    await owner.client.put(`${base}/issues/1/labels`, { labels: [bug, docs] });
    expect((await owner.client.delete(`${base}/issues/1/labels`)).status).toBe(204);
    await e2e.recorder.eventMatching((e) => e.subject === 'collaboration.issue.label_cleared' && e.payload.issue?.id === issue.body.id);
    expect((await anonymous.get(`${base}/issues/1`)).body.labels).toEqual([]);
  });

  test('filter the issue list by every named label, by name or id', async () => {
    const owner = await newUser();
    const base = await newRepository(owner);
    const bug = (await owner.client.post(`${base}/labels`, { name: 'bug', color: '#aabbcc' })).body.id;
    const ui = (await owner.client.post(`${base}/labels`, { name: 'ui', color: '#aabbcc' })).body.id;
    await owner.client.post(`${base}/issues`, { title: 'one', labels: [bug] });
    await owner.client.post(`${base}/issues`, { title: 'two', labels: [bug, ui] });
    await owner.client.post(`${base}/issues`, { title: 'three' });
    expect((await anonymous.get(`${base}/issues?labels=bug`)).body.map((i: { number: number }) => i.number)).toEqual([2, 1]);
    expect((await anonymous.get(`${base}/issues?labels=bug,${ui}`)).body.map((i: { number: number }) => i.number)).toEqual([2]);
    // A label that does not exist is dropped from the filter, as Gitea drops it.
    expect((await anonymous.get(`${base}/issues?labels=nope`)).body).toHaveLength(3);
  });

  test('refuse unknown labels, labels of another repository and readers, changing nothing', async () => {
    const owner = await newUser();
    const reader = await newUser();
    const base = await newRepository(owner);
    const other = await newRepository(owner);
    const foreign = (await owner.client.post(`${other}/labels`, { name: 'foreign', color: '#aabbcc' })).body.id;
    const bug = (await owner.client.post(`${base}/labels`, { name: 'bug', color: '#aabbcc' })).body.id;
    await owner.client.post(`${base}/issues`, { title: 'Target', labels: [bug] });

    expect((await owner.client.undeclared('POST', `${base}/issues/1/labels`, { labels: [987654321] })).status).toBe(422);
    expect((await owner.client.undeclared('PUT', `${base}/issues/1/labels`, { labels: [foreign] })).status).toBe(422);
    expect((await owner.client.post(`${base}/issues`, { title: 'Foreign', labels: [foreign] })).status).toBe(422);
    expect((await owner.client.delete(`${base}/issues/1/labels/987654321`)).status).toBe(422);
    expect((await reader.client.post(`${base}/issues/1/labels`, { labels: [bug] })).status).toBe(403);
    expect((await reader.client.delete(`${base}/issues/1/labels`)).status).toBe(403);
    expect(names((await anonymous.get(`${base}/issues/1/labels`)).body)).toEqual(['bug']);
    expect((await anonymous.get(`${base}/issues?state=all`)).headers.get('x-total-count')).toBe('1');
  });
});

describe('organization labels', () => {
  async function newOrg(owner: Writer, visibility = 'public'): Promise<string> {
    const name = e2e.users.unique('org-');
    expect((await owner.client.post('/orgs', { username: name, visibility })).status).toBe(201);
    return name;
  }

  test('are managed by owners and usable on issues in every repository of the organization', async () => {
    const owner = await newUser();
    const org = await newOrg(owner);
    const label = await owner.client.post(`/orgs/${org}/labels`, { name: 'team/backend', color: '#336699', exclusive: true });
    expect(label.status).toBe(201);
    expect(label.body.url).toMatch(new RegExp(`/api/v1/orgs/${org}/labels/${label.body.id}$`));
    expect((await anonymous.get(`/orgs/${org}/labels`)).body.map((l: { name: string }) => l.name)).toEqual(['team/backend']);
    expect((await owner.client.get(`/orgs/${org}/labels/${label.body.id}`)).body.color).toBe('336699');
    expect((await owner.client.patch(`/orgs/${org}/labels/${label.body.id}`, { description: 'Server side' })).body.description).toBe('Server side');

    const repo = e2e.users.unique('org-repo-');
    expect((await owner.client.post(`/orgs/${org}/repos`, { name: repo })).status).toBe(201);
    const base = `/repos/${org}/${repo}`;
    const issue = await owner.client.post(`${base}/issues`, { title: 'Org labelled', labels: [label.body.id] });
    expect(issue.status).toBe(201);
    expect(issue.body.labels).toEqual([expect.objectContaining({ name: 'team/backend', url: label.body.url })]);
    expect((await owner.client.post(`${base}/issues`, { title: 'Other' })).status).toBe(201);
    expect((await anonymous.get(`${base}/issues?labels=team/backend`)).body.map((i: { number: number }) => i.number)).toEqual([1]);
    expect((await owner.client.put(`${base}/issues/2/labels`, { labels: ['team/backend'] })).body.map((l: { id: number }) => l.id)).toEqual([label.body.id]);

    // A label of another organization is no label here.
    const otherOrg = await newOrg(owner);
    const foreign = (await owner.client.post(`/orgs/${otherOrg}/labels`, { name: 'foreign', color: '#000000' })).body.id;
    expect((await owner.client.post(`${base}/issues`, { title: 'Foreign', labels: [foreign] })).status).toBe(422);

    expect((await owner.client.delete(`/orgs/${org}/labels/${label.body.id}`)).status).toBe(204);
    expect((await anonymous.get(`${base}/issues/1`)).body.labels).toEqual([]);
  });

  test('refuse non-owners, and are not found in a private organization for strangers', async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const org = await newOrg(owner, 'private');
    const label = await owner.client.post(`/orgs/${org}/labels`, { name: 'hidden', color: '#000000' });
    expect(label.status).toBe(201);
    expect((await stranger.client.get(`/orgs/${org}/labels`)).status).toBe(404);
    expect((await stranger.client.get(`/orgs/${org}/labels/${label.body.id}`)).status).toBe(404);
    const publicOrg = await newOrg(owner);
    expect((await stranger.client.undeclared('POST', `/orgs/${publicOrg}/labels`, { name: 'mine', color: '#000000' })).status).toBe(403);
    expect((await owner.client.post(`/orgs/${publicOrg}/labels`, { name: 'bad', color: 'nope' })).status).toBe(422);
    expect((await anonymous.get(`/orgs/${publicOrg}/labels`)).body).toEqual([]);
  });
});
