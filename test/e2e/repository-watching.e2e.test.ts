// Repository watching through the gateway: the creator of a repository watches it, anyone
// who may read it can watch or stop, and every repository JSON counts its watchers
// (watchers_count) without a call per repository.
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import { bootE2e, type E2e, type Writer } from '../support/e2e.js';
import { eventually } from '../support/eventually.js';

jest.setTimeout(120_000);

let e2e: E2e;

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'watch-user' });
}, 180_000);

afterAll(() => e2e?.close());

const newUser = (): Promise<Writer> => e2e.newWriter({ scopes: ['write:repository', 'write:issue', 'write:user', 'write:notification'] });

async function newRepository(owner: Writer, options: { private?: boolean } = {}): Promise<{ base: string; name: string }> {
  const name = e2e.users.unique('watched-');
  const created = await owner.client.post('/user/repos', { name, private: options.private ?? false });
  expect(created.status).toBe(201);
  // As in Gitea, the creator watches the repository from the start: the answer counts it.
  expect(created.body.watchers_count).toBe(1);
  return { base: `/repos/${owner.username}/${name}`, name };
}

describe('repository watching', () => {
  test('makes the creator of a repository its watcher, counted in the repository JSON', async () => {
    const owner = await newUser();
    const { base, name } = await newRepository(owner);

    const watch = await eventually(() => owner.client.get(`${base}/subscription`), (r) => r.status === 200, 'the creator\'s watch');
    expect(watch.body).toMatchObject({ subscribed: true, ignored: false, reason: null });
    expect(watch.body.url).toMatch(new RegExp(`/api/v1${base}/subscription$`));
    expect(watch.body.repository_url).toMatch(new RegExp(`/api/v1${base}$`));

    // Counted once: when the row was made, not again when the watch was recorded.
    expect((await owner.client.get(base)).body.watchers_count).toBe(1);
    const subscribers = await e2e.anonymous.get(`${base}/subscribers`);
    expect(subscribers.body.map((u: { login: string }) => u.login)).toEqual([owner.username]);
    expect(subscribers.headers.get('x-total-count')).toBe('1');
    // Lists carry the count too.
    const mine = await owner.client.get('/user/repos');
    expect(mine.body.find((r: { name: string }) => r.name === name)?.watchers_count).toBe(1);
    const watched = await owner.client.get('/user/subscriptions');
    expect(watched.body.map((r: { name: string }) => r.name)).toEqual([name]);
  });

  test('lets a reader watch and stop watching, the count following', async () => {
    const owner = await newUser();
    const reader = await newUser();
    const { base, name } = await newRepository(owner);
    expect((await owner.client.get(base)).body.watchers_count).toBe(1);
    // Once the creator's watch is recorded, every count below comes after that record's:
    // counting the creator again would leave the count one too high at the end.
    await eventually(() => owner.client.get(`${base}/subscription`), (r) => r.status === 200, 'the creator\'s watch');

    expect((await reader.client.get(`${base}/subscription`)).status).toBe(404);
    const put = await reader.client.put(`${base}/subscription`);
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ subscribed: true, ignored: false });
    expect((await reader.client.put(`${base}/subscription`)).status).toBe(200);
    expect((await reader.client.get(`${base}/subscription`)).status).toBe(200);
    await eventually(() => e2e.anonymous.get(base), (r) => r.body.watchers_count === 2, 'watchers_count 2');
    expect((await e2e.anonymous.get(`/users/${reader.username}/subscriptions`)).body.map((r: { name: string }) => r.name)).toEqual([name]);

    expect((await reader.client.delete(`${base}/subscription`)).status).toBe(204);
    expect((await reader.client.get(`${base}/subscription`)).status).toBe(404);
    await eventually(() => e2e.anonymous.get(base), (r) => r.body.watchers_count === 1, 'watchers_count back to 1');
    expect((await reader.client.get('/user/subscriptions')).body).toEqual([]);
  });

  test('keeps a private repository\'s watching from strangers', async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const { base } = await newRepository(owner, { private: true });
    await eventually(() => owner.client.get(`${base}/subscription`), (r) => r.status === 200, 'the creator\'s watch');

    expect((await stranger.client.put(`${base}/subscription`)).status).toBe(404);
    expect((await stranger.client.get(`${base}/subscribers`)).status).toBe(404);
    expect((await e2e.anonymous.get(`/users/${owner.username}/subscriptions`)).body).toEqual([]);
    expect((await owner.client.get(`/users/${owner.username}/subscriptions`)).body).toHaveLength(1);
  });
});
