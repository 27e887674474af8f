// Milestones through the gateway: created open or closed, named by id or name, listed by
// state and name, with exact open/closed issue counts; who may change them; bad input.
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e, type Writer } from '../support/e2e.js';

jest.setTimeout(120_000);

let e2e: E2e;
let anonymous: ApiClient;

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'ms-user', events: 'collaboration' });
  ({ anonymous } = e2e);
}, 180_000);

afterAll(() => e2e?.close());

const newUser = (): Promise<Writer> => e2e.newWriter({ scopes: ['write:repository', 'write:issue', 'write:user'] });

async function newRepository(owner: Writer, options: { private?: boolean } = {}): Promise<string> {
  const name = e2e.users.unique('milestones-');
  expect((await owner.client.post('/user/repos', { name, private: options.private ?? false })).status).toBe(201);
  return `/repos/${owner.username}/${name}`;
}

describe('milestones', () => {
  test('one created closed is closed at once with closed_at; one created open has none', async () => {
    const owner = await newUser();
    const base = await newRepository(owner);
    const open = await owner.client.post(`${base}/milestones`, { title: 'v1.0', description: 'First', due_on: '2027-03-01T12:00:00+01:00' });
    expect(open.status).toBe(201);
    expect(open.body).toMatchObject({ title: 'v1.0', description: 'First', state: 'open', closed_at: null, open_issues: 0, closed_issues: 0, due_on: '2027-03-01T11:00:00Z' });
    const closed = await owner.client.post(`${base}/milestones`, { title: 'v0.9', state: 'closed' });
    expect(closed.body.state).toBe('closed');
    expect(closed.body.closed_at).not.toBeNull();

    expect((await anonymous.get(`${base}/milestones`)).body.map((m: { title: string }) => m.title)).toEqual(['v1.0']);
    expect((await anonymous.get(`${base}/milestones?state=closed`)).body.map((m: { title: string }) => m.title)).toEqual(['v0.9']);
    const all = await anonymous.get(`${base}/milestones?state=all`);
    expect(all.headers.get('x-total-count')).toBe('2');
    expect((await anonymous.get(`${base}/milestones?state=all&name=0.9`)).body.map((m: { title: string }) => m.title)).toEqual(['v0.9']);
  });

  test('are read, edited and deleted by id or by name', async () => {
    const owner = await newUser();
    const base = await newRepository(owner);
    const created = await owner.client.post(`${base}/milestones`, { title: 'Sprint 1' });
    expect((await anonymous.get(`${base}/milestones/${created.body.id}`)).body.title).toBe('Sprint 1');
    expect((await anonymous.get(`${base}/milestones/Sprint%201`)).body.id).toBe(created.body.id);

    const closed = await owner.client.patch(`${base}/milestones/Sprint%201`, { state: 'closed', description: 'Done' });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ state: 'closed', description: 'Done', title: 'Sprint 1' });
    expect(closed.body.closed_at).not.toBeNull();
    const reopened = await owner.client.patch(`${base}/milestones/${created.body.id}`, { state: 'open', title: 'Sprint one' });
    expect(reopened.body).toMatchObject({ state: 'open', closed_at: null, title: 'Sprint one' });

    expect((await owner.client.delete(`${base}/milestones/Sprint%20one`)).status).toBe(204);
    expect((await anonymous.get(`${base}/milestones/${created.body.id}`)).status).toBe(404);
  });

  test('count their open and closed issues exactly as issues come, go, close and move', async () => {
    const owner = await newUser();
    const base = await newRepository(owner);
    const v1 = (await owner.client.post(`${base}/milestones`, { title: 'v1' })).body.id;
    const v2 = (await owner.client.post(`${base}/milestones`, { title: 'v2' })).body.id;
    for (const title of ['a', 'b', 'c']) await owner.client.post(`${base}/issues`, { title, milestone: v1 });
    await owner.client.post(`${base}/issues`, { title: 'd', milestone: v1, closed: true });
    await owner.client.patch(`${base}/issues/1`, { state: 'closed' });
    await owner.client.patch(`${base}/issues/2`, { milestone: v2 });
    expect((await owner.client.delete(`${base}/issues/3`)).status).toBe(204);
    expect((await anonymous.get(`${base}/milestones/${v1}`)).body).toMatchObject({ open_issues: 0, closed_issues: 2 });
    expect((await anonymous.get(`${base}/milestones/${v2}`)).body).toMatchObject({ open_issues: 1, closed_issues: 0 });
    expect((await anonymous.get(`${base}/issues/2`)).body.milestone).toMatchObject({ id: v2, title: 'v2' });
    expect((await anonymous.get(`${base}/issues?state=all&milestones=v1`)).body.map((i: { number: number }) => i.number)).toEqual([4, 1]);
    expect((await anonymous.get(`${base}/issues?state=all&milestones=${v2}`)).body.map((i: { number: number }) => i.number)).toEqual([2]);
  });

  test('refuse bad input, readers and strangers, changing nothing', async () => {
    const owner = await newUser();
    const reader = await newUser();
    const base = await newRepository(owner, { private: true });
    expect((await owner.client.undeclared('POST', `${base}/milestones`, { title: '' })).status).toBe(422);
    expect((await owner.client.undeclared('POST', `${base}/milestones`, { title: 'Bad state', state: 'sideways' })).status).toBe(422);
    expect((await owner.client.undeclared('POST', `${base}/milestones`, { title: 'Bad date', due_on: 'soon' })).status).toBe(422);
    // A reader who cannot see the private repository gets 404 before anything else.
    expect((await reader.client.post(`${base}/milestones`, { title: 'Mine' })).status).toBe(404);
    expect((await reader.client.get(`${base}/milestones`)).status).toBe(404);
    const listed = await owner.client.get(`${base}/milestones?state=all`);
    expect(listed.body).toEqual([]);
    expect((await owner.client.get(`${base}/milestones/nope`)).status).toBe(404);
  });
});

describe('milestone events', () => {
  test('creating, editing, closing, reopening and deleting a milestone publish its events', async () => {
    const owner = await newUser();
    const base = await newRepository(owner);
    const milestone = (await owner.client.post(`${base}/milestones`, { title: 'announced' })).body;
    const of = (action: string) => e2e.recorder.eventMatching((e) => e.subject === `collaboration.milestone.${action}` && e.payload.milestone?.id === milestone.id);
    expect((await of('created')).payload).toMatchObject({
      action: 'created', milestone: { title: 'announced', state: 'open' }, repository: { name: base.split('/')[3] }, sender: { login: owner.username },
    });
    expect((await owner.client.patch(`${base}/milestones/${milestone.id}`, { description: 'more' })).status).toBe(200);
    expect((await of('edited')).payload).toMatchObject({ milestone: { description: 'more' } });
    await owner.client.patch(`${base}/milestones/${milestone.id}`, { state: 'closed' });
    expect((await of('closed')).payload).toMatchObject({ milestone: { state: 'closed' } });
    await owner.client.patch(`${base}/milestones/${milestone.id}`, { state: 'open' });
    expect((await of('opened')).payload).toMatchObject({ milestone: { state: 'open' } });
    expect((await owner.client.delete(`${base}/milestones/${milestone.id}`)).status).toBe(204);
    expect((await of('deleted')).payload).toMatchObject({ milestone: { title: 'announced' } });
  });
});
