// Reactions on issues and comments through the gateway: only the kinds `[ui] REACTIONS`
// lists (here set to a short list) are taken, reacting twice answers the existing reaction
// with 200, they are listed with their users, removed, and refused on locked issues to
// readers and in private repositories to strangers.
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e, type Writer } from '../support/e2e.js';

jest.setTimeout(120_000);

let e2e: E2e;
let anonymous: ApiClient;

beforeAll(async () => {
  e2e = await bootE2e({ prefix: 'rx-user', env: { ANVIL__ui__REACTIONS: '+1,heart,rocket' } });
  ({ anonymous } = e2e);
}, 180_000);

afterAll(() => e2e?.close());

const newUser = (): Promise<Writer> => e2e.newWriter({ scopes: ['write:repository', 'write:issue', 'write:user'] });

async function newRepository(owner: Writer, options: { private?: boolean } = {}): Promise<string> {
  const name = e2e.users.unique('reactions-');
  expect((await owner.client.post('/user/repos', { name, private: options.private ?? false })).status).toBe(201);
  return `/repos/${owner.username}/${name}`;
}

describe('reactions', () => {
  test('on an issue: only the configured kinds, once per user and kind, listed and removed', async () => {
    const owner = await newUser();
    const fan = await newUser();
    const base = await newRepository(owner);
    await owner.client.post(`${base}/issues`, { title: 'React to me' });
    const first = await fan.client.post(`${base}/issues/1/reactions`, { content: 'heart' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ content: 'heart', user: { login: fan.username } });
    expect((await fan.client.post(`${base}/issues/1/reactions`, { content: 'heart' })).status).toBe(200);
    expect((await owner.client.post(`${base}/issues/1/reactions`, { content: '+1' })).status).toBe(201);
    // Gitea's default list has "laugh"; this instance's [ui] REACTIONS does not.
    expect((await fan.client.post(`${base}/issues/1/reactions`, { content: 'laugh' })).status).toBe(403);

    const listed = await anonymous.get(`${base}/issues/1/reactions`);
    expect(listed.body.map((r: { content: string; user: { login: string } }) => `${r.user.login}:${r.content}`)).toEqual([`${fan.username}:heart`, `${owner.username}:+1`]);
    expect(listed.headers.get('x-total-count')).toBe('2');
    expect((await fan.client.delete(`${base}/issues/1/reactions`, { content: 'heart' })).status).toBe(204);
    expect((await anonymous.get(`${base}/issues/1/reactions`)).body).toHaveLength(1);
  });

  test('on a comment, and refused on a locked issue to readers and to strangers of a private repository', async () => {
    const owner = await newUser();
    const fan = await newUser();
    const base = await newRepository(owner);
    await owner.client.post(`${base}/issues`, { title: 'Thread' });
    const comment = (await owner.client.post(`${base}/issues/1/comments`, { body: 'Ship it?' })).body;
    expect((await fan.client.post(`${base}/issues/comments/${comment.id}/reactions`, { content: 'rocket' })).status).toBe(201);
    expect((await anonymous.get(`${base}/issues/comments/${comment.id}/reactions`)).body.map((r: { content: string }) => r.content)).toEqual(['rocket']);
    expect((await anonymous.get(`${base}/issues/1/reactions`)).body).toEqual([]);

    await owner.client.put(`${base}/issues/1/lock`, {});
    expect((await fan.client.post(`${base}/issues/1/reactions`, { content: '+1' })).status).toBe(403);
    expect((await owner.client.post(`${base}/issues/1/reactions`, { content: '+1' })).status).toBe(201);
    expect((await fan.client.delete(`${base}/issues/comments/${comment.id}/reactions`, { content: 'rocket' })).status).toBe(403);

    const secret = await newRepository(owner, { private: true });
    await owner.client.post(`${secret}/issues`, { title: 'Hidden' });
    expect((await fan.client.post(`${secret}/issues/1/reactions`, { content: '+1' })).status).toBe(404);
    expect((await fan.client.get(`${secret}/issues/1/reactions`)).status).toBe(404);
    expect((await owner.client.post(`${base}/issues/comments/987654321/reactions`, { content: '+1' })).status).toBe(404);
  });
});
