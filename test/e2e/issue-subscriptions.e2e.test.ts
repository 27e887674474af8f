// Issue subscriptions through the gateway: participants (poster, commenters, assignees,
// mentioned users) watch implicitly; anyone may subscribe or unsubscribe themselves, the
// HTTP status saying whether anything changed; only a site admin may do so for others.
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import { bootE2e, type E2e, type Writer } from '../support/e2e.js';

jest.setTimeout(120_000);

let e2e: E2e;

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'sb-user' });
}, 180_000);

afterAll(() => e2e?.close());

const newUser = (): Promise<Writer> => e2e.newWriter({ scopes: ['write:repository', 'write:issue', 'write:user'] });

async function newRepository(owner: Writer, options: { private?: boolean } = {}): Promise<string> {
  const name = e2e.users.unique('subs-');
  expect((await owner.client.post('/user/repos', { name, private: options.private ?? false })).status).toBe(201);
  return `/repos/${owner.username}/${name}`;
}

const logins = (users: Array<{ login: string }>) => users.map((u) => u.login).sort();

describe('issue subscriptions', () => {
  test('participants watch implicitly; the check answers Gitea\'s watch info', async () => {
    const owner = await newUser();
    const commenter = await newUser();
    const mentioned = await newUser();
    const mentionedInComment = await newUser();
    const bystander = await newUser();
    const base = await newRepository(owner);
    await owner.client.post(`${base}/issues`, { title: 'Watch me', body: `cc @${mentioned.username}` });
    await commenter.client.post(`${base}/issues/1/comments`, { body: 'Following' });
    // Mentioned in a comment, twice over and once more in another: a participant once.
    await commenter.client.post(`${base}/issues/1/comments`, { body: `@${mentionedInComment.username} and @${mentionedInComment.username}, see this` });
    await owner.client.post(`${base}/issues/1/comments`, { body: `Thanks @${mentionedInComment.username}` });

    const subscribers = await owner.client.get(`${base}/issues/1/subscriptions`);
    expect(subscribers.status).toBe(200);
    expect(logins(subscribers.body)).toEqual([owner.username, commenter.username, mentioned.username, mentionedInComment.username].sort());
    expect(subscribers.headers.get('x-total-count')).toBe('4');

    const check = await commenter.client.get(`${base}/issues/1/subscriptions/check`);
    expect(check.body).toMatchObject({ subscribed: true, ignored: false, reason: null });
    expect(check.body.url).toMatch(new RegExp(`/api/v1${base}/issues/1/subscriptions$`));
    expect(check.body.repository_url).toMatch(new RegExp(`/api/v1${base}$`));
    expect((await bystander.client.get(`${base}/issues/1/subscriptions/check`)).body).toMatchObject({ subscribed: false, ignored: true });
  });

  test('subscribing and unsubscribing answer 201 when it changed and 200 when it already was so', async () => {
    const owner = await newUser();
    const watcher = await newUser();
    const other = await newUser();
    const base = await newRepository(owner);
    await owner.client.post(`${base}/issues`, { title: 'Subscribe' });

    expect((await watcher.client.put(`${base}/issues/1/subscriptions/${watcher.username}`)).status).toBe(201);
    expect((await watcher.client.put(`${base}/issues/1/subscriptions/${watcher.username}`)).status).toBe(200);
    expect((await watcher.client.get(`${base}/issues/1/subscriptions/check`)).body.subscribed).toBe(true);
    expect((await watcher.client.delete(`${base}/issues/1/subscriptions/${watcher.username}`)).status).toBe(201);
    expect((await watcher.client.delete(`${base}/issues/1/subscriptions/${watcher.username}`)).status).toBe(200);
    // The poster can stop watching their own issue.
    expect((await owner.client.delete(`${base}/issues/1/subscriptions/${owner.username}`)).status).toBe(201);
    expect((await owner.client.get(`${base}/issues/1/subscriptions`)).body).toEqual([]);

    expect((await other.client.undeclared('PUT', `${base}/issues/1/subscriptions/${watcher.username}`)).status).toBe(403);
    expect((await e2e.admin.put(`${base}/issues/1/subscriptions/${other.username}`)).status).toBe(201);
    expect(logins((await owner.client.get(`${base}/issues/1/subscriptions`)).body)).toEqual([other.username]);
    expect((await watcher.client.put(`${base}/issues/1/subscriptions/nobody-at-all-here`)).status).toBe(404);
    expect((await watcher.client.put(`${base}/issues/99/subscriptions/${watcher.username}`)).status).toBe(404);
  });

  test('of a private repository\'s issues are not found for strangers', async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const base = await newRepository(owner, { private: true });
    await owner.client.post(`${base}/issues`, { title: 'Hidden' });
    expect((await stranger.client.get(`${base}/issues/1/subscriptions`)).status).toBe(404);
    expect((await stranger.client.get(`${base}/issues/1/subscriptions/check`)).status).toBe(404);
    expect((await stranger.client.put(`${base}/issues/1/subscriptions/${stranger.username}`)).status).toBe(404);
  });
});
