// Tracked time through the gateway: adding seconds (back-dated, or for another user by a
// repository admin), listing an issue's, a repository's and one's own times with Gitea's
// paging headers, resetting one's own, deleting one entry (a missing one is 404, never
// 500), the timeline's entries, the repository's time-tracking switch as PATCH sets it and
// the repository JSON reports it, and the event on NATS. Pull requests share the index.
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import { bootE2e, type E2e, type Writer } from '../support/e2e.js';

jest.setTimeout(180_000);

let e2e: E2e;

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'tt-user', events: 'collaboration' });
}, 180_000);

afterAll(() => e2e?.close());

const newUser = (): Promise<Writer> => e2e.newWriter({ scopes: ['write:repository', 'write:issue', 'write:user'] });
const b64 = (s: string) => Buffer.from(s).toString('base64');

async function newRepository(owner: Writer, options: { private?: boolean; autoInit?: boolean } = {}): Promise<string> {
  const name = e2e.users.unique('times-');
  expect((await owner.client.post('/user/repos', { name, private: options.private ?? false, auto_init: options.autoInit ?? false })).status).toBe(201);
  return `/repos/${owner.username}/${name}`;
}

async function addCollaborator(owner: Writer, base: string, user: Writer, permission: 'read' | 'write' | 'admin') {
  expect((await owner.client.put(`${base}/collaborators/${user.username}`, { permission })).status).toBe(204);
}

describe('tracked times', () => {
  test('are added, listed per issue, per repository and per user with paging headers, and shown in the timeline', async () => {
    const owner = await newUser();
    const base = await newRepository(owner);
    await owner.client.post(`${base}/issues`, { title: 'Track me' });
    await owner.client.post(`${base}/issues`, { title: 'And me' });

    const added = await owner.client.post(`${base}/issues/1/times`, { time: 3600, created: '2026-03-04T05:06:07Z' });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ time: 3600, created: '2026-03-04T05:06:07Z', user_name: owner.username, issue: { number: 1, title: 'Track me' } });
    await owner.client.post(`${base}/issues/1/times`, { time: 60 });
    await owner.client.post(`${base}/issues/2/times`, { time: 120 });

    const issueTimes = await owner.client.get(`${base}/issues/1/times?limit=1`);
    expect(issueTimes.body.map((t: { time: number }) => t.time)).toEqual([3600]);
    expect(issueTimes.headers.get('x-total-count')).toBe('2');
    expect(issueTimes.headers.get('link')).toContain('rel="next"');

    const repoTimes = await owner.client.get(`${base}/times`);
    expect(repoTimes.body.map((t: { time: number }) => t.time)).toEqual([3600, 60, 120]);
    const since = await owner.client.get(`${base}/times?since=2026-06-01T00:00:00Z`);
    expect(since.body.map((t: { time: number }) => t.time)).toEqual([60, 120]);
    const before = await owner.client.get(`${base}/times?before=2026-06-01T00:00:00Z&user=${owner.username}`);
    expect(before.body.map((t: { time: number }) => t.time)).toEqual([3600]);

    const mine = await owner.client.get('/user/times');
    expect(mine.body.map((t: { time: number }) => t.time)).toEqual([3600, 60, 120]);
    expect(mine.body[0].issue.repository.full_name).toBe(base.replace('/repos/', ''));

    const timeline = await owner.client.get(`${base}/issues/1/timeline`);
    const entry = timeline.body.find((c: { type: string }) => c.type === 'add_time_manual');
    expect(entry).toMatchObject({ body: '1 hour', user: { login: owner.username }, tracked_time: { id: added.body.id, time: 3600 } });

    const event = await e2e.recorder.eventMatching((e) => e.subject === 'collaboration.tracked_time.added' && e.payload.time?.id === added.body.id);
    expect(event.payload).toMatchObject({ action: 'added', time: { time: 3600 }, issue: { index: 1 }, sender: { login: owner.username } });
  });

  test('work on pull requests through the issue index', async () => {
    const owner = await newUser();
    const base = await newRepository(owner, { autoInit: true });
    expect((await owner.client.post(`${base}/contents/feature.txt`, { content: b64('one\n'), new_branch: 'topic', message: 'Add feature' })).status).toBe(201);
    expect((await owner.client.post(`${base}/pulls`, { title: 'Feature', head: 'topic', base: 'main' })).status).toBe(201);
    const added = await owner.client.post(`${base}/issues/1/times`, { time: 90 });
    expect(added.status).toBe(200);
    expect(added.body.issue).toMatchObject({ number: 1, title: 'Feature' });
    expect(added.body.issue.html_url).toMatch(/\/pulls\/1$/);
    expect((await owner.client.get(`${base}/issues/1/times`)).body).toHaveLength(1);
  });

  test('deleting an entry that does not exist answers 404, and only its author or an admin may delete one', async () => {
    const owner = await newUser();
    const writer = await newUser();
    const base = await newRepository(owner);
    await addCollaborator(owner, base, writer, 'write');
    await owner.client.post(`${base}/issues`, { title: 'Delete times' });
    await owner.client.post(`${base}/issues`, { title: 'Another' });
    const owners = (await owner.client.post(`${base}/issues/1/times`, { time: 30 })).body;
    const writers = (await writer.client.post(`${base}/issues/1/times`, { time: 40 })).body;

    expect((await owner.client.delete(`${base}/issues/1/times/987654321`)).status).toBe(404);
    expect((await owner.client.delete(`${base}/issues/2/times/${owners.id}`)).status).toBe(404);
    expect((await owner.client.delete(`${base}/issues/99/times/${owners.id}`)).status).toBe(404);
    expect((await writer.client.delete(`${base}/issues/1/times/${owners.id}`)).status).toBe(403);
    expect((await writer.client.delete(`${base}/issues/1/times/${writers.id}`)).status).toBe(204);
    expect((await writer.client.delete(`${base}/issues/1/times/${writers.id}`)).status).toBe(404);
    // The owner is the repository's admin.
    expect((await owner.client.post(`${base}/issues/1/times`, { time: 5, user_name: writer.username })).status).toBe(200);
    const writersSecond = (await owner.client.get(`${base}/issues/1/times?user=${writer.username}`)).body[0];
    expect((await owner.client.delete(`${base}/issues/1/times/${writersSecond.id}`)).status).toBe(204);
    expect((await owner.client.get(`${base}/issues/1/times`)).body.map((t: { id: number }) => t.id)).toEqual([owners.id]);
  });

  test('resetting removes only the caller\'s own times, and 404 when they have none', async () => {
    const owner = await newUser();
    const writer = await newUser();
    const base = await newRepository(owner);
    await addCollaborator(owner, base, writer, 'write');
    await owner.client.post(`${base}/issues`, { title: 'Reset' });
    await owner.client.post(`${base}/issues/1/times`, { time: 100 });
    await owner.client.post(`${base}/issues/1/times`, { time: 200 });
    await writer.client.post(`${base}/issues/1/times`, { time: 7 });

    expect((await owner.client.delete(`${base}/issues/1/times`)).status).toBe(204);
    expect((await owner.client.get(`${base}/issues/1/times`)).body.map((t: { user_name: string }) => t.user_name)).toEqual([writer.username]);
    expect((await owner.client.delete(`${base}/issues/1/times`)).status).toBe(404);
    const timeline = (await owner.client.get(`${base}/issues/1/timeline`)).body;
    expect(timeline.filter((c: { type: string }) => c.type === 'delete_time_manual').map((c: { body: string }) => c.body)).toEqual(['5 minutes']);
  });

  test('for another user only by a repository admin; bad input is refused and changes nothing', async () => {
    const owner = await newUser();
    const writer = await newUser();
    const base = await newRepository(owner);
    await addCollaborator(owner, base, writer, 'write');
    await owner.client.post(`${base}/issues`, { title: 'On behalf' });

    const forWriter = await owner.client.post(`${base}/issues/1/times`, { time: 600, user_name: writer.username });
    expect(forWriter.body).toMatchObject({ user_name: writer.username, user_id: expect.any(Number) });
    expect((await writer.client.post(`${base}/issues/1/times`, { time: 60, user_name: owner.username })).status).toBe(403);
    expect((await owner.client.post(`${base}/issues/1/times`, { time: 60, user_name: 'nobody-by-this-name' })).status).toBe(404);
    expect((await owner.client.undeclared('POST', `${base}/issues/1/times`, { time: 0 })).status).toBe(422);
    expect((await owner.client.undeclared('POST', `${base}/issues/1/times`, { time: -60 })).status).toBe(422);
    expect((await owner.client.undeclared('POST', `${base}/issues/1/times`, {})).status).toBe(422);
    expect((await owner.client.undeclared('POST', `${base}/issues/1/times`, { time: 60, created: 'yesterday' })).status).toBe(422);
    expect((await owner.client.undeclared('GET', `${base}/times?since=yesterday`)).status).toBe(422);
    expect((await owner.client.post(`${base}/issues/99/times`, { time: 60 })).status).toBe(404);
    expect((await owner.client.get(`${base}/times`)).body.map((t: { time: number }) => t.time)).toEqual([600]);
  });

  test('readers see only their own times and may not ask for another user\'s', async () => {
    const owner = await newUser();
    const reader = await newUser();
    const base = await newRepository(owner);
    await addCollaborator(owner, base, reader, 'read');
    await reader.client.post(`${base}/issues`, { title: 'Reader\'s issue' });
    await owner.client.post(`${base}/issues/1/times`, { time: 10 });
    // The poster tracks time on their own issue (only contributors, posters and assignees may).
    expect((await reader.client.post(`${base}/issues/1/times`, { time: 20 })).status).toBe(200);
    expect((await reader.client.get(`${base}/issues/1/times`)).body.map((t: { time: number }) => t.time)).toEqual([20]);
    expect((await reader.client.undeclared('GET', `${base}/issues/1/times?user=${owner.username}`)).status).toBe(403);
    expect((await reader.client.get(`${base}/times?user=${owner.username}`)).status).toBe(403);
    expect((await reader.client.get(`${base}/times/${owner.username}`)).status).toBe(403);
    expect((await owner.client.get(`${base}/times/${reader.username}`)).body.map((t: { time: number }) => t.time)).toEqual([20]);
  });

  test('of a private repository are not found for strangers', async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const base = await newRepository(owner, { private: true });
    await owner.client.post(`${base}/issues`, { title: 'Hidden' });
    await owner.client.post(`${base}/issues/1/times`, { time: 10 });
    expect((await stranger.client.get(`${base}/issues/1/times`)).status).toBe(404);
    expect((await stranger.client.post(`${base}/issues/1/times`, { time: 10 })).status).toBe(404);
    expect((await stranger.client.get(`${base}/times`)).status).toBe(404);
    expect((await stranger.client.get('/user/times')).body).toEqual([]);
  });

  test('follow the repository\'s switch, which PATCH sets and the repository JSON reports', async () => {
    const owner = await newUser();
    const base = await newRepository(owner);
    await owner.client.post(`${base}/issues`, { title: 'Switch' });
    expect((await owner.client.get(base)).body.internal_tracker).toEqual({ enable_time_tracker: true, allow_only_contributors_to_track_time: true, enable_issue_dependencies: true });

    const patched = await owner.client.patch(base, { internal_tracker: { enable_time_tracker: false, allow_only_contributors_to_track_time: false, enable_issue_dependencies: true } });
    expect(patched.body.internal_tracker).toEqual({ enable_time_tracker: false, allow_only_contributors_to_track_time: false, enable_issue_dependencies: true });
    const refused = await owner.client.post(`${base}/issues/1/times`, { time: 60 });
    expect([refused.status, refused.body.message]).toEqual([400, 'time tracking disabled']);
    expect((await owner.client.get(`${base}/issues/1/times`)).status).toBe(404);
    expect((await owner.client.get(`${base}/times`)).status).toBe(400);
    expect((await owner.client.delete(`${base}/issues/1/times/1`)).status).toBe(400);

    await owner.client.patch(base, { internal_tracker: { enable_time_tracker: true, allow_only_contributors_to_track_time: true, enable_issue_dependencies: true } });
    expect((await owner.client.post(`${base}/issues/1/times`, { time: 60 })).status).toBe(200);
  });
});
