// Comments on issues through the gateway: written, listed per issue and per repository
// (since/before, paged), read, edited and deleted by their poster or a writer, counted on
// the issue, announced as issue_comment events; locked issues take comments only from
// writers; private repositories hide them; bad input changes nothing.
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e, type Writer } from '../support/e2e.js';

jest.setTimeout(120_000);

let e2e: E2e;
let anonymous: ApiClient;

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'ic-user', events: 'collaboration' });
  ({ anonymous } = e2e);
}, 180_000);

afterAll(() => e2e?.close());

const newUser = (): Promise<Writer> => e2e.newWriter({ scopes: ['write:repository', 'write:issue', 'write:user'] });

async function newRepository(owner: Writer, options: { private?: boolean } = {}): Promise<string> {
  const name = e2e.users.unique('comments-');
  expect((await owner.client.post('/user/repos', { name, private: options.private ?? false })).status).toBe(201);
  return `/repos/${owner.username}/${name}`;
}

const bodies = (comments: Array<{ body: string }>) => comments.map((c) => c.body);

describe('issue comments', () => {
  test('are written, listed oldest first, counted on the issue and announced', async () => {
    const owner = await newUser();
    const visitor = await newUser();
    const base = await newRepository(owner);
    const issue = await owner.client.post(`${base}/issues`, { title: 'Talk' });
    const first = await visitor.client.post(`${base}/issues/1/comments`, { body: 'Me too' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ body: 'Me too', user: { login: visitor.username }, pull_request_url: '' });
    expect(first.body.html_url).toMatch(new RegExp(`/issues/1#issuecomment-${first.body.id}$`));
    expect(first.body.issue_url).toMatch(/\/issues\/1$/);
    await owner.client.post(`${base}/issues/1/comments`, { body: 'Fixed in main' });

    expect(bodies((await anonymous.get(`${base}/issues/1/comments`)).body)).toEqual(['Me too', 'Fixed in main']);
    expect((await anonymous.get(`${base}/issues/1`)).body.comments).toBe(2);
    expect((await anonymous.get(`${base}/issues/comments/${first.body.id}`)).body.body).toBe('Me too');
    const event = await e2e.recorder.eventMatching((e) => e.subject === 'collaboration.issue_comment.created' && e.payload.comment?.id === first.body.id);
    expect(event.payload).toMatchObject({ action: 'created', issue: { id: issue.body.id, comments: 1 }, sender: { login: visitor.username } });
  });

  test('of a whole repository are listed with since/before and paged', async () => {
    const owner = await newUser();
    const base = await newRepository(owner);
    await owner.client.post(`${base}/issues`, { title: 'one' });
    await owner.client.post(`${base}/issues`, { title: 'two' });
    for (const [index, body] of [[1, 'a'], [2, 'b'], [1, 'c']] as const) await owner.client.post(`${base}/issues/${index}/comments`, { body });
    const all = await anonymous.get(`${base}/issues/comments`);
    expect(bodies(all.body)).toEqual(['a', 'b', 'c']);
    expect(all.headers.get('x-total-count')).toBe('3');
    const paged = await anonymous.get(`${base}/issues/comments?limit=2&page=2`);
    expect(bodies(paged.body)).toEqual(['c']);
    const future = encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString());
    expect((await anonymous.get(`${base}/issues/comments?since=${future}`)).body).toEqual([]);
    expect((await anonymous.get(`${base}/issues/1/comments?before=${future}`)).body).toHaveLength(2);
  });

  test('are edited and deleted by their poster or a writer, and by nobody else', async () => {
    const owner = await newUser();
    const poster = await newUser();
    const other = await newUser();
    const base = await newRepository(owner);
    await owner.client.post(`${base}/issues`, { title: 'Edits' });
    const comment = (await poster.client.post(`${base}/issues/1/comments`, { body: 'tpyo' })).body;

    expect((await other.client.patch(`${base}/issues/comments/${comment.id}`, { body: 'hijack' })).status).toBe(403);
    expect((await other.client.delete(`${base}/issues/comments/${comment.id}`)).status).toBe(403);
    const edited = await poster.client.patch(`${base}/issues/comments/${comment.id}`, { body: 'typo' });
    expect(edited.status).toBe(200);
    expect(edited.body.body).toBe('typo');
    const event = await e2e.recorder.eventMatching((e) => e.subject === 'collaboration.issue_comment.edited' && e.payload.comment?.id === comment.id);
    expect(event.payload.changes).toMatchObject({ body_from: 'tpyo' });

    expect((await owner.client.delete(`${base}/issues/comments/${comment.id}`)).status).toBe(204);
    expect((await anonymous.get(`${base}/issues/comments/${comment.id}`)).status).toBe(404);
    expect((await anonymous.get(`${base}/issues/1`)).body.comments).toBe(0);
  });

  test('a locked issue takes comments only from writers', async () => {
    const owner = await newUser();
    const visitor = await newUser();
    const base = await newRepository(owner);
    await owner.client.post(`${base}/issues`, { title: 'Heated' });
    expect((await visitor.client.put(`${base}/issues/1/lock`, { lock_reason: 'Too heated' })).status).toBe(403);
    expect((await owner.client.put(`${base}/issues/1/lock`, { lock_reason: 'Too heated' })).status).toBe(204);
    expect((await anonymous.get(`${base}/issues/1`)).body.is_locked).toBe(true);
    expect((await visitor.client.post(`${base}/issues/1/comments`, { body: 'But…' })).status).toBe(403);
    expect((await owner.client.post(`${base}/issues/1/comments`, { body: 'Locked for now' })).status).toBe(201);
    expect((await owner.client.delete(`${base}/issues/1/lock`)).status).toBe(204);
    expect((await visitor.client.post(`${base}/issues/1/comments`, { body: 'Thanks' })).status).toBe(201);
    expect(bodies((await anonymous.get(`${base}/issues/1/comments`)).body)).toEqual(['Locked for now', 'Thanks']);
  });

  test('are hidden in a private repository, refused in an archived one, and bad input changes nothing', async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const base = await newRepository(owner, { private: true });
    await owner.client.post(`${base}/issues`, { title: 'Secret' });
    const comment = (await owner.client.post(`${base}/issues/1/comments`, { body: 'hush' })).body;
    expect((await stranger.client.get(`${base}/issues/1/comments`)).status).toBe(404);
    expect((await stranger.client.get(`${base}/issues/comments`)).status).toBe(404);
    expect((await stranger.client.get(`${base}/issues/comments/${comment.id}`)).status).toBe(404);
    expect((await stranger.client.post(`${base}/issues/1/comments`, { body: 'hi' })).status).toBe(404);

    expect((await owner.client.undeclared('POST', `${base}/issues/1/comments`, { body: '' })).status).toBe(422);
    expect((await owner.client.undeclared('POST', `${base}/issues/1/comments`, { body: 'x'.repeat(1024 * 1024) })).status).toBe(422);
    expect((await owner.client.post(`${base}/issues/99/comments`, { body: 'nowhere' })).status).toBe(404);
    expect((await owner.client.get(`${base}/issues/comments/987654321`)).status).toBe(404);
    expect((await owner.client.undeclared('GET', `${base}/issues/comments?since=yesterday`)).status).toBe(422);

    expect((await owner.client.patch(base, { archived: true })).status).toBe(200);
    expect((await owner.client.post(`${base}/issues/1/comments`, { body: 'archived' })).status).toBe(423);
    expect(bodies((await owner.client.get(`${base}/issues/1/comments`)).body)).toEqual(['hush']);
  });
});
