// Stopwatches through the gateway: one runs per user and issue (starting it again is 409),
// starting another stops the first, stopping adds the measured time as a tracked time,
// cancelling drops it, and each leaves its entry in the timeline. Only those who may write
// the issue or pull request use one; the repository's switch turns them off.
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import { bootE2e, type E2e, type Writer } from '../support/e2e.js';

jest.setTimeout(180_000);

let e2e: E2e;

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'sw-user', events: 'collaboration' });
}, 180_000);

afterAll(() => e2e?.close());

const newUser = (): Promise<Writer> => e2e.newWriter({ scopes: ['write:repository', 'write:issue', 'write:user'] });
const b64 = (s: string) => Buffer.from(s).toString('base64');

async function newRepository(owner: Writer, options: { private?: boolean; autoInit?: boolean } = {}): Promise<string> {
  const name = e2e.users.unique('watch-');
  expect((await owner.client.post('/user/repos', { name, private: options.private ?? false, auto_init: options.autoInit ?? false })).status).toBe(201);
  return `/repos/${owner.username}/${name}`;
}

const types = (timeline: Array<{ type: string }>) => timeline.map((c) => c.type).filter((t) => t.endsWith('_tracking'));

describe('stopwatches', () => {
  test('run once per user and issue, show in /user/stopwatches, and add their time when stopped', async () => {
    const owner = await newUser();
    const base = await newRepository(owner);
    const name = base.split('/').pop();
    await owner.client.post(`${base}/issues`, { title: 'Time me' });

    expect((await owner.client.post(`${base}/issues/1/stopwatch/start`)).status).toBe(201);
    const again = await owner.client.post(`${base}/issues/1/stopwatch/start`);
    expect(again.status).toBe(409);
    const running = await owner.client.get('/user/stopwatches');
    expect(running.body).toEqual([expect.objectContaining({ issue_index: 1, issue_title: 'Time me', repo_owner_name: owner.username, repo_name: name })]);
    expect(running.headers.get('x-total-count')).toBe('1');
    expect(typeof running.body[0].seconds).toBe('number');
    expect(typeof running.body[0].duration).toBe('string');

    expect((await owner.client.post(`${base}/issues/1/stopwatch/stop`)).status).toBe(201);
    expect((await owner.client.post(`${base}/issues/1/stopwatch/stop`)).status).toBe(409);
    expect((await owner.client.get('/user/stopwatches')).body).toEqual([]);
    const times = (await owner.client.get(`${base}/issues/1/times`)).body;
    expect(times).toEqual([expect.objectContaining({ user_name: owner.username, time: expect.any(Number) })]);
    const timeline = (await owner.client.get(`${base}/issues/1/timeline`)).body;
    expect(types(timeline)).toEqual(['start_tracking', 'stop_tracking']);
    expect(timeline.find((c: { type: string }) => c.type === 'stop_tracking').tracked_time).toMatchObject({ id: times[0].id });
    await e2e.recorder.eventMatching((e) => e.subject === 'collaboration.tracked_time.stopwatch_stopped' && e.payload.time?.id === times[0].id);
  });

  test('starting one stops the user\'s other; cancelling tracks nothing', async () => {
    const owner = await newUser();
    const base = await newRepository(owner);
    await owner.client.post(`${base}/issues`, { title: 'First' });
    await owner.client.post(`${base}/issues`, { title: 'Second' });

    await owner.client.post(`${base}/issues/1/stopwatch/start`);
    await owner.client.post(`${base}/issues/2/stopwatch/start`);
    expect((await owner.client.get('/user/stopwatches')).body.map((s: { issue_index: number }) => s.issue_index)).toEqual([2]);
    expect((await owner.client.get(`${base}/issues/1/times`)).body).toHaveLength(1);

    expect((await owner.client.delete(`${base}/issues/2/stopwatch/delete`)).status).toBe(204);
    expect((await owner.client.delete(`${base}/issues/2/stopwatch/delete`)).status).toBe(409);
    expect((await owner.client.get(`${base}/issues/2/times`)).body).toEqual([]);
    expect(types((await owner.client.get(`${base}/issues/2/timeline`)).body)).toEqual(['start_tracking', 'cancel_tracking']);
  });

  test('work on pull requests through the issue index', async () => {
    const owner = await newUser();
    const base = await newRepository(owner, { autoInit: true });
    expect((await owner.client.post(`${base}/contents/feature.txt`, { content: b64('one\n'), new_branch: 'topic', message: 'Add feature' })).status).toBe(201);
    expect((await owner.client.post(`${base}/pulls`, { title: 'Feature', head: 'topic', base: 'main' })).status).toBe(201);
    expect((await owner.client.post(`${base}/issues/1/stopwatch/start`)).status).toBe(201);
    expect((await owner.client.post(`${base}/issues/1/stopwatch/stop`)).status).toBe(201);
    expect((await owner.client.get(`${base}/issues/1/times`)).body).toHaveLength(1);
  });

  test('are refused to readers and to everyone while the repository\'s time tracking is off', async () => {
    const owner = await newUser();
    const reader = await newUser();
    const base = await newRepository(owner);
    expect((await owner.client.put(`${base}/collaborators/${reader.username}`, { permission: 'read' })).status).toBe(204);
    await reader.client.post(`${base}/issues`, { title: 'Reader\'s' });
    expect((await reader.client.post(`${base}/issues/1/stopwatch/start`)).status).toBe(403);
    expect((await reader.client.get('/user/stopwatches')).body).toEqual([]);
    expect((await owner.client.post(`${base}/issues/99/stopwatch/start`)).status).toBe(404);

    await owner.client.patch(base, { internal_tracker: { enable_time_tracker: false, allow_only_contributors_to_track_time: true, enable_issue_dependencies: true } });
    expect((await owner.client.post(`${base}/issues/1/stopwatch/start`)).status).toBe(403);
    expect((await owner.client.get('/user/stopwatches')).body).toEqual([]);
  });

  test('of a private repository are not found for strangers', async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const base = await newRepository(owner, { private: true });
    await owner.client.post(`${base}/issues`, { title: 'Hidden' });
    expect((await stranger.client.post(`${base}/issues/1/stopwatch/start`)).status).toBe(404);
    expect((await stranger.client.delete(`${base}/issues/1/stopwatch/delete`)).status).toBe(404);
  });
});
