// An issue's timeline through the gateway: its comments and the changes made to it (title,
// ref, state, assignees, milestone, labels, lock), oldest first, each with what it records;
// timeline entries are no comments (the comment routes answer 204 for them).
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e, type Writer } from '../support/e2e.js';

jest.setTimeout(120_000);

let e2e: E2e;
let anonymous: ApiClient;

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'tl-user' });
  ({ anonymous } = e2e);
}, 180_000);

afterAll(() => e2e?.close());

const newUser = (): Promise<Writer> => e2e.newWriter({ scopes: ['write:repository', 'write:issue', 'write:user'] });

describe('issue timeline', () => {
  test('lists comments and every change, oldest first, with what each records', async () => {
    const owner = await newUser();
    const name = e2e.users.unique('timeline-');
    expect((await owner.client.post('/user/repos', { name })).status).toBe(201);
    const base = `/repos/${owner.username}/${name}`;
    const bug = (await owner.client.post(`${base}/labels`, { name: 'bug', color: '#ee0701' })).body;
    const v1 = (await owner.client.post(`${base}/milestones`, { title: 'v1' })).body;
    await owner.client.post(`${base}/issues`, { title: 'Old title' });
    await owner.client.post(`${base}/issues/1/comments`, { body: 'First!' });
    await owner.client.patch(`${base}/issues/1`, { title: 'New title', ref: 'refs/heads/fix', milestone: v1.id, assignees: [owner.username] });
    await owner.client.post(`${base}/issues/1/labels`, { labels: [bug.id] });
    await owner.client.delete(`${base}/issues/1/labels/${bug.id}`);
    await owner.client.patch(`${base}/issues/1`, { state: 'closed' });
    await owner.client.put(`${base}/issues/1/lock`, { lock_reason: 'Resolved' });

    const timeline = await anonymous.get(`${base}/issues/1/timeline`);
    expect(timeline.status).toBe(200);
    const entries = timeline.body as Array<Record<string, any>>;
    expect(entries.map((e) => e.type)).toEqual(['comment', 'change_title', 'change_issue_ref', 'assignees', 'milestone', 'label', 'label', 'close', 'lock']);
    expect(timeline.headers.get('x-total-count')).toBe('9');
    expect(entries[0]).toMatchObject({ body: 'First!', user: { login: owner.username } });
    expect(entries[1]).toMatchObject({ old_title: 'Old title', new_title: 'New title' });
    expect(entries[2]).toMatchObject({ old_ref: '', new_ref: 'refs/heads/fix' });
    expect(entries[3]).toMatchObject({ assignee: { login: owner.username }, removed_assignee: false });
    expect(entries[4]).toMatchObject({ milestone: { id: v1.id, title: 'v1' }, old_milestone: null });
    expect(entries[5]).toMatchObject({ body: '1', label: { id: bug.id, name: 'bug' } });
    expect(entries[6]).toMatchObject({ body: '', label: { id: bug.id } });
    expect(entries[8]).toMatchObject({ body: 'Resolved' });

    // Entries are no comments: the comment list and the count leave them out.
    expect((await anonymous.get(`${base}/issues/1/comments`)).body).toHaveLength(1);
    expect((await anonymous.get(`${base}/issues/1`)).body.comments).toBe(1);
    expect((await anonymous.get(`${base}/issues/comments/${entries[1].id}`)).status).toBe(204);
    expect(((await anonymous.get(`${base}/issues/1/timeline?limit=2&page=2`)).body as Array<{ type: string }>).map((e) => e.type)).toEqual(['change_issue_ref', 'assignees']);
    expect((await anonymous.get(`${base}/issues/99/timeline`)).status).toBe(404);
  });
});
