// Issues through the gateway: opened by a user and in a repository created a moment ago,
// numbered per repository, listed with Gitea's filters and paging, edited, given a due date
// in any time zone, deleted; who may see and change them; what an archived repository and
// bad input get; and the events webhooks will be built from.
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e, type Writer } from '../support/e2e.js';

jest.setTimeout(120_000);

let e2e: E2e;
let anonymous: ApiClient;

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'is-user', events: 'collaboration' });
  ({ anonymous } = e2e);
}, 180_000);

afterAll(() => e2e?.close());

const SCOPES = ['write:repository', 'write:issue', 'write:user'];

/** A fresh user whose token may write repositories and issues. */
async function newUser(): Promise<Writer> {
  return e2e.newWriter({ scopes: SCOPES });
}

async function newRepository(owner: Writer, options: { private?: boolean } = {}): Promise<string> {
  const name = e2e.users.unique('issues-');
  const res = await owner.client.post('/user/repos', { name, private: options.private ?? false });
  expect(res.status).toBe(201);
  return `/repos/${owner.username}/${name}`;
}

const numbers = (body: Array<{ number: number }>) => body.map((i) => i.number);

describe('opening issues', () => {
  test('a user created a moment ago opens an issue in a repository created a moment ago', async () => {
    const owner = await newUser();
    const base = await newRepository(owner);
    const res = await owner.client.post(`${base}/issues`, { title: 'It breaks', body: 'Steps:\n1. run it' });
    expect(res.status).toBe(201);
    const [, , login, name] = base.split('/');
    expect(res.body).toMatchObject({
      number: 1, title: 'It breaks', body: 'Steps:\n1. run it', state: 'open', is_locked: false, comments: 0,
      user: { login: owner.username, id: owner.id }, labels: [], milestone: null, assignee: null, assignees: null,
      closed_at: null, due_date: null, pull_request: null,
      repository: { name, owner: login, full_name: `${login}/${name}` },
    });
    expect(res.body.url).toMatch(new RegExp(`/api/v1${base}/issues/1$`));
    expect(res.body.html_url).toMatch(new RegExp(`/${login}/${name}/issues/1$`));

    const again = await anonymous.get(`${base}/issues/1`);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: res.body.id, title: 'It breaks', user: { login: owner.username } });
  });

  test('numbers issues per repository, one after another', async () => {
    const owner = await newUser();
    const first = await newRepository(owner);
    const second = await newRepository(owner);
    expect((await owner.client.post(`${first}/issues`, { title: 'a' })).body.number).toBe(1);
    expect((await owner.client.post(`${first}/issues`, { title: 'b' })).body.number).toBe(2);
    expect((await owner.client.post(`${second}/issues`, { title: 'c' })).body.number).toBe(1);
  });

  test('gives concurrent issues distinct consecutive numbers', async () => {
    const owner = await newUser();
    const base = await newRepository(owner);
    const created = await Promise.all(Array.from({ length: 16 }, (_, n) => owner.client.post(`${base}/issues`, { title: `race ${n}` })));
    expect(created.map((r) => r.status)).toEqual(Array(16).fill(201));
    expect(created.map((r) => r.body.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 16 }, (_, n) => n + 1));
  });

  test('an issue created closed is closed at once and counted as closed', async () => {
    const owner = await newUser();
    const base = await newRepository(owner);
    const res = await owner.client.post(`${base}/issues`, { title: 'Already done', closed: true });
    expect(res.status).toBe(201);
    expect(res.body.state).toBe('closed');
    expect(res.body.closed_at).not.toBeNull();
    expect((await anonymous.get(`${base}/issues?state=closed`)).headers.get('x-total-count')).toBe('1');
    expect((await anonymous.get(`${base}/issues`)).headers.get('x-total-count')).toBe('0');
  });

  test('publishes the opened event with the issue, the repository and the sender', async () => {
    const owner = await newUser();
    const base = await newRepository(owner);
    const res = await owner.client.post(`${base}/issues`, { title: 'Announce me' });
    const event = await e2e.recorder.eventMatching((e) => e.subject === 'collaboration.issue.opened' && e.payload.issue?.id === res.body.id);
    expect(event.payload).toMatchObject({
      action: 'opened', issue: { index: 1, title: 'Announce me', state: 'open' },
      repository: { name: base.split('/')[3], owner_login: owner.username }, sender: { id: owner.id, login: owner.username },
    });
  });
});

describe('listing issues', () => {
  test('filters by state, keyword, poster and time, newest first, paged with Link and X-Total-Count', async () => {
    const owner = await newUser();
    const other = await newUser();
    const base = await newRepository(owner);
    for (const title of ['Crash on start', 'Typo in README', 'Crash on exit']) {
      expect((await owner.client.post(`${base}/issues`, { title })).status).toBe(201);
    }
    expect((await other.client.post(`${base}/issues`, { title: 'Question from a visitor' })).status).toBe(201);
    expect((await owner.client.patch(`${base}/issues/2`, { state: 'closed' })).status).toBe(201);

    const open = await anonymous.get(`${base}/issues`);
    expect(open.status).toBe(200);
    expect(numbers(open.body)).toEqual([4, 3, 1]);
    expect(open.headers.get('x-total-count')).toBe('3');
    expect(numbers((await anonymous.get(`${base}/issues?state=closed`)).body)).toEqual([2]);
    expect(numbers((await anonymous.get(`${base}/issues?state=all`)).body)).toEqual([4, 3, 2, 1]);
    expect(numbers((await anonymous.get(`${base}/issues?q=crash`)).body)).toEqual([3, 1]);
    expect(numbers((await anonymous.get(`${base}/issues?created_by=${other.username}`)).body)).toEqual([4]);
    expect((await anonymous.get(`${base}/issues?type=pulls`)).body).toEqual([]);

    const page = await anonymous.get(`${base}/issues?state=all&limit=2&page=2`);
    expect(numbers(page.body)).toEqual([2, 1]);
    expect(page.headers.get('x-total-count')).toBe('4');
    expect(page.headers.get('link')).toContain('rel="prev"');

    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await anonymous.get(`${base}/issues?state=all&since=${encodeURIComponent(future)}`)).body).toEqual([]);
    expect((await anonymous.get(`${base}/issues?state=all&before=${encodeURIComponent(future)}`)).body).toHaveLength(4);
  });

  test('the page size defaults to DEFAULT_PAGING_NUM and is capped by MAX_RESPONSE_ITEMS', async () => {
    const owner = await newUser();
    const base = await newRepository(owner);
    await Promise.all(Array.from({ length: 52 }, (_, n) => owner.client.post(`${base}/issues`, { title: `issue ${n}` })));
    const first = await anonymous.get(`${base}/issues`);
    expect(first.body).toHaveLength(30);
    expect(first.headers.get('x-total-count')).toBe('52');
    expect((await anonymous.get(`${base}/issues?limit=100`)).body).toHaveLength(50);
  });

  test('an unknown user in a filter is not found; a malformed time is refused', async () => {
    const owner = await newUser();
    const base = await newRepository(owner);
    expect((await anonymous.get(`${base}/issues?created_by=nobody-at-all-here`)).status).toBe(404);
    const res = await anonymous.undeclared('GET', `${base}/issues?since=yesterday`);
    expect(res.status).toBe(422);
  });
});

describe('editing issues', () => {
  test('the poster edits title and body and closes it; the changes are announced', async () => {
    const owner = await newUser();
    const base = await newRepository(owner);
    const opened = await owner.client.post(`${base}/issues`, { title: 'Old title', body: 'old body' });
    const res = await owner.client.patch(`${base}/issues/1`, { title: 'New title', body: 'new body', state: 'closed' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: 'New title', body: 'new body', state: 'closed' });
    expect(res.body.closed_at).not.toBeNull();

    const edited = await e2e.recorder.eventMatching((e) => e.subject === 'collaboration.issue.edited' && e.payload.issue?.id === opened.body.id);
    expect(edited.payload.changes).toMatchObject({ title_from: 'Old title', body_from: 'old body' });
    await e2e.recorder.eventMatching((e) => e.subject === 'collaboration.issue.closed' && e.payload.issue?.id === opened.body.id);

    const reopened = await owner.client.patch(`${base}/issues/1`, { state: 'open' });
    expect(reopened.body).toMatchObject({ state: 'open', closed_at: null });
  });

  test('due dates keep the instant the client meant, in whatever time zone it was given', async () => {
    const owner = await newUser();
    const base = await newRepository(owner);
    const created = await owner.client.post(`${base}/issues`, { title: 'Due', due_date: '2026-12-24T18:30:00+02:00' });
    expect(created.body.due_date).toBe('2026-12-24T16:30:00Z');
    expect((await anonymous.get(`${base}/issues/1`)).body.due_date).toBe('2026-12-24T16:30:00Z');

    const set = await owner.client.post(`${base}/issues/1/deadline`, { due_date: '2027-01-02T03:04:05-05:00' });
    expect(set.status).toBe(201);
    expect(set.body).toEqual({ due_date: '2027-01-02T08:04:05Z' });
    expect((await anonymous.get(`${base}/issues/1`)).body.due_date).toBe('2027-01-02T08:04:05Z');

    const unset = await owner.client.patch(`${base}/issues/1`, { unset_due_date: true });
    expect(unset.body.due_date).toBeNull();
  });

  test('deleting an issue takes an admin of the repository; it is then gone', async () => {
    const owner = await newUser();
    const reader = await newUser();
    const base = await newRepository(owner);
    const opened = await owner.client.post(`${base}/issues`, { title: 'Spam' });
    expect((await reader.client.delete(`${base}/issues/1`)).status).toBe(403);
    expect((await owner.client.delete(`${base}/issues/1`)).status).toBe(204);
    expect((await anonymous.get(`${base}/issues/1`)).status).toBe(404);
    expect((await owner.client.delete(`${base}/issues/1`)).status).toBe(404);
    await e2e.recorder.eventMatching((e) => e.subject === 'collaboration.issue.deleted' && e.payload.issue?.id === opened.body.id);
    // The number is not given out again.
    expect((await owner.client.post(`${base}/issues`, { title: 'Next' })).body.number).toBe(2);
  });
});

describe('who may see and change issues', () => {
  test('a private repository\'s issues are not found for strangers and anonymous callers', async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const base = await newRepository(owner, { private: true });
    expect((await owner.client.post(`${base}/issues`, { title: 'Secret' })).status).toBe(201);
    expect((await owner.client.get(`${base}/issues/1`)).status).toBe(200);
    for (const client of [stranger.client, anonymous]) {
      expect((await client.get(`${base}/issues`)).status).toBe(404);
      expect((await client.get(`${base}/issues/1`)).status).toBe(404);
    }
    expect((await stranger.client.post(`${base}/issues`, { title: 'Let me in' })).status).toBe(404);
    expect((await stranger.client.patch(`${base}/issues/1`, { title: 'Mine now' })).status).toBe(404);
    expect((await owner.client.get(`${base}/issues`)).headers.get('x-total-count')).toBe('1');
  });

  test('a reader opens issues but cannot edit other people\'s; anonymous callers must sign in', async () => {
    const owner = await newUser();
    const reader = await newUser();
    const base = await newRepository(owner);
    expect((await owner.client.post(`${base}/issues`, { title: 'Owner\'s' })).status).toBe(201);
    const own = await reader.client.post(`${base}/issues`, { title: 'Reader\'s', due_date: '2027-01-01T00:00:00Z' });
    expect(own.status).toBe(201);
    // Only writers set due dates, labels, milestones and assignees; a reader's are dropped.
    expect(own.body.due_date).toBeNull();
    expect((await reader.client.patch(`${base}/issues/2`, { title: 'Reader\'s, edited' })).status).toBe(201);
    expect((await reader.client.patch(`${base}/issues/1`, { title: 'Hijacked' })).status).toBe(403);
    expect((await anonymous.undeclared('POST', `${base}/issues`, { title: 'Anonymous' })).status).toBe(401);
    expect((await anonymous.get(`${base}/issues/1`)).body.title).toBe('Owner\'s');
  });

  test('locking and pinning an issue take a repository admin: a writer and the poster are refused with Gitea\'s message', async () => {
    const owner = await newUser();
    const writer = await newUser();
    const base = await newRepository(owner);
    expect((await owner.client.put(`${base}/collaborators/${writer.username}`, { permission: 'write' })).status).toBe(204);
    expect((await writer.client.post(`${base}/issues`, { title: 'Writer\'s own' })).status).toBe(201);
    const adminOnly = { status: 403, message: 'user should be an owner or a collaborator with admin write of a repository' };
    const lock = await writer.client.put(`${base}/issues/1/lock`, { lock_reason: 'Too heated' });
    expect({ status: lock.status, message: lock.body.message }).toEqual(adminOnly);
    const pin = await writer.client.post(`${base}/issues/1/pin`);
    expect({ status: pin.status, message: pin.body.message }).toEqual(adminOnly);
    expect((await anonymous.get(`${base}/issues/1`)).body.is_locked).toBe(false);
    expect((await anonymous.get(`${base}/issues/pinned`)).body).toEqual([]);
    expect((await owner.client.put(`${base}/issues/1/lock`, { lock_reason: 'Too heated' })).status).toBe(204);
    expect((await owner.client.post(`${base}/issues/1/pin`)).status).toBe(204);
    const unlock = await writer.client.delete(`${base}/issues/1/lock`);
    expect({ status: unlock.status, message: unlock.body.message }).toEqual(adminOnly);
    expect((await anonymous.get(`${base}/issues/1`)).body.is_locked).toBe(true);
  });

  test('a reader cannot set a deadline, labels or assignees, even on their own issue; a writer can', async () => {
    const owner = await newUser();
    const reader = await newUser();
    const writer = await newUser();
    const base = await newRepository(owner);
    expect((await owner.client.put(`${base}/collaborators/${writer.username}`, { permission: 'write' })).status).toBe(204);
    const label = (await owner.client.post(`${base}/labels`, { name: 'bug', color: '#ee0701' })).body;
    expect((await reader.client.post(`${base}/issues`, { title: 'Reader\'s own' })).status).toBe(201);
    const writeOnly = { status: 403, message: 'user should have a permission to write to a repo' };
    const refusals = [
      await reader.client.post(`${base}/issues/1/deadline`, { due_date: '2027-01-02T00:00:00Z' }),
      await reader.client.post(`${base}/issues/1/labels`, { labels: [label.id] }),
      await reader.client.post(`${base}/issues/1/assignees`, { assignees: [owner.username] }),
    ];
    for (const res of refusals) expect({ status: res.status, message: res.body.message }).toEqual(writeOnly);
    expect((await anonymous.get(`${base}/issues/1`)).body).toMatchObject({ due_date: null, labels: [], assignees: null });
    expect((await writer.client.post(`${base}/issues/1/deadline`, { due_date: '2027-01-02T00:00:00Z' })).status).toBe(201);
    expect((await writer.client.post(`${base}/issues/1/labels`, { labels: [label.id] })).status).toBe(200);
    expect((await writer.client.post(`${base}/issues/1/assignees`, { assignees: [owner.username] })).status).toBe(201);
    // The poster still edits the title of their own issue without write access.
    expect((await reader.client.patch(`${base}/issues/1`, { title: 'Reader\'s own, edited' })).status).toBe(201);
    expect((await anonymous.get(`${base}/issues/1`)).body).toMatchObject({
      title: 'Reader\'s own, edited', labels: [expect.objectContaining({ name: 'bug' })], assignees: [expect.objectContaining({ login: owner.username })],
    });
  });

  test('an archived repository refuses issue writes with 423 and still lists its issues', async () => {
    const owner = await newUser();
    const base = await newRepository(owner);
    expect((await owner.client.post(`${base}/issues`, { title: 'Before archiving' })).status).toBe(201);
    expect((await owner.client.patch(base, { archived: true })).status).toBe(200);
    expect((await owner.client.post(`${base}/issues`, { title: 'After archiving' })).status).toBe(423);
    expect((await owner.client.undeclared('PATCH', `${base}/issues/1`, { title: 'Changed' })).status).toBe(423);
    const listed = await anonymous.get(`${base}/issues`);
    expect(numbers(listed.body)).toEqual([1]);
    expect(listed.body[0].title).toBe('Before archiving');
  });
});

describe('bad input', () => {
  test('refuses what Gitea refuses, with a clear message, and changes nothing', async () => {
    const owner = await newUser();
    const base = await newRepository(owner);
    const refused = [
      { title: '' },
      { title: 'x'.repeat(256) },
      { title: 'Huge', body: 'x'.repeat(1024 * 1024) },
      { title: 'Unknown label', labels: [987654321] },
      { title: 'Unknown milestone', milestone: 987654321 },
      { title: 'Unknown assignee', assignees: ['nobody-at-all-here'] },
      { title: 'Bad date', due_date: 'tomorrow' },
    ];
    for (const body of refused) {
      const res = await owner.client.post(`${base}/issues`, body);
      expect([res.status, body.title]).toEqual([422, body.title]);
      expect(typeof res.body.message).toBe('string');
    }
    expect((await owner.client.post(`${base}/issues`, { title: 'x'.repeat(255) })).body.number).toBe(1);
    expect((await anonymous.get(`${base}/issues?state=all`)).headers.get('x-total-count')).toBe('1');
    // The contract declares no 422 for an edit; an over-long title is refused all the same.
    expect((await owner.client.undeclared('PATCH', `${base}/issues/1`, { title: 'x'.repeat(256) })).status).toBe(422);
    expect((await anonymous.get(`${base}/issues/1`)).body.title).toBe('x'.repeat(255));
    expect((await anonymous.get(`${base}/issues/999`)).status).toBe(404);
    expect((await anonymous.get(`${base}/issues/not-a-number`)).status).toBe(404);
  });
});

describe('pinned issues', () => {
  test('writers pin up to three issues, reorder and unpin them; everyone sees them in order', async () => {
    const owner = await newUser();
    const reader = await newUser();
    const base = await newRepository(owner);
    for (const title of ['a', 'b', 'c', 'd']) await owner.client.post(`${base}/issues`, { title });
    for (const index of [2, 4, 1]) expect((await owner.client.post(`${base}/issues/${index}/pin`)).status).toBe(204);
    expect((await owner.client.undeclared('POST', `${base}/issues/3/pin`)).status).toBe(400);
    expect((await reader.client.post(`${base}/issues/3/pin`)).status).toBe(403);
    expect(numbers((await anonymous.get(`${base}/issues/pinned`)).body)).toEqual([2, 4, 1]);
    expect((await anonymous.get(`${base}/issues/1`)).body.pin_order).toBe(3);

    expect((await owner.client.patch(`${base}/issues/1/pin/1`)).status).toBe(204);
    expect(numbers((await anonymous.get(`${base}/issues/pinned`)).body)).toEqual([1, 2, 4]);
    expect((await owner.client.delete(`${base}/issues/2/pin`)).status).toBe(204);
    expect(numbers((await anonymous.get(`${base}/issues/pinned`)).body)).toEqual([1, 4]);
    expect((await anonymous.get(`${base}/issues/4`)).body.pin_order).toBe(2);
    expect((await owner.client.post(`${base}/issues/99/pin`)).status).toBe(404);
  });
});

describe('issue dependencies', () => {
  test('an issue that depends on an open one cannot be closed; dependencies and blocks list both sides', async () => {
    const owner = await newUser();
    const reader = await newUser();
    const base = await newRepository(owner);
    const name = base.split('/')[3];
    for (const title of ['feature', 'groundwork', 'docs']) await owner.client.post(`${base}/issues`, { title });
    const added = await owner.client.post(`${base}/issues/1/dependencies`, { owner: owner.username, repo: name, index: 2 });
    expect(added.status).toBe(201);
    expect(added.body.number).toBe(2);
    expect((await owner.client.post(`${base}/issues/3/blocks`, { index: 1 })).status).toBe(201);
    expect(numbers((await anonymous.get(`${base}/issues/1/dependencies`)).body)).toEqual([2, 3]);
    expect(numbers((await anonymous.get(`${base}/issues/2/blocks`)).body)).toEqual([1]);

    expect((await owner.client.undeclared('PATCH', `${base}/issues/1`, { state: 'closed' })).status).toBe(412);
    expect((await anonymous.get(`${base}/issues/1`)).body.state).toBe('open');
    await owner.client.patch(`${base}/issues/2`, { state: 'closed' });
    expect((await owner.client.delete(`${base}/issues/1/dependencies`, { index: 3 })).status).toBe(200);
    expect((await owner.client.patch(`${base}/issues/1`, { state: 'closed' })).status).toBe(201);

    // Itself, a cycle, another repository, readers: refused, nothing changed.
    expect((await owner.client.undeclared('POST', `${base}/issues/2/dependencies`, { index: 2 })).status).toBe(422);
    expect((await owner.client.undeclared('POST', `${base}/issues/2/dependencies`, { index: 1 })).status).toBe(422);
    expect((await owner.client.post(`${base}/issues/2/dependencies`, { owner: owner.username, repo: 'elsewhere', index: 1 })).status).toBe(404);
    expect((await reader.client.undeclared('POST', `${base}/issues/3/dependencies`, { index: 2 })).status).toBe(403);
    expect(numbers((await anonymous.get(`${base}/issues/1/dependencies`)).body)).toEqual([2]);
  });
  test('with the repository\'s dependencies off, the routes are not found and closing is not held back', async () => {
    const owner = await newUser();
    const base = await newRepository(owner);
    for (const title of ['feature', 'groundwork']) await owner.client.post(`${base}/issues`, { title });
    expect((await owner.client.post(`${base}/issues/1/dependencies`, { index: 2 })).status).toBe(201);
    const patched = await owner.client.patch(base, { internal_tracker: { enable_time_tracker: true, allow_only_contributors_to_track_time: true, enable_issue_dependencies: false } });
    expect(patched.body.internal_tracker.enable_issue_dependencies).toBe(false);
    expect((await owner.client.get(`${base}/issues/1/dependencies`)).status).toBe(404);
    expect((await owner.client.post(`${base}/issues/1/dependencies`, { index: 2 })).status).toBe(404);
    expect((await owner.client.patch(`${base}/issues/1`, { state: 'closed' })).status).toBe(201);
  });

  test('an issue may depend on one of another repository the caller can see, never on a private one they cannot', async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const base = await newRepository(owner);
    const other = await newRepository(owner);
    const secret = await newRepository(stranger, { private: true });
    await owner.client.post(`${base}/issues`, { title: 'needs the library fixed' });
    await owner.client.post(`${other}/issues`, { title: 'library bug' });
    await stranger.client.post(`${secret}/issues`, { title: 'hidden' });
    const [, , otherOwner, otherName] = other.split('/');

    const added = await owner.client.post(`${base}/issues/1/dependencies`, { owner: otherOwner, repo: otherName, index: 1 });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ number: 1, title: 'library bug', repository: { owner: otherOwner, name: otherName } });
    const listed = await anonymous.get(`${base}/issues/1/dependencies`);
    expect(listed.body).toEqual([expect.objectContaining({ title: 'library bug', repository: expect.objectContaining({ full_name: `${otherOwner}/${otherName}` }) })]);
    expect((await anonymous.get(`${other}/issues/1/blocks`)).body).toEqual([expect.objectContaining({ title: 'needs the library fixed' })]);
    // Closing waits for the other repository's issue too.
    expect((await owner.client.undeclared('PATCH', `${base}/issues/1`, { state: 'closed' })).status).toBe(412);

    const [, , secretOwner, secretName] = secret.split('/');
    expect((await owner.client.post(`${base}/issues/1/dependencies`, { owner: secretOwner, repo: secretName, index: 1 })).status).toBe(404);
    expect((await owner.client.delete(`${base}/issues/1/dependencies`, { owner: otherOwner, repo: otherName, index: 1 })).status).toBe(200);
    expect((await anonymous.get(`${base}/issues/1/dependencies`)).body).toEqual([]);
  });
});

describe('an issue that is a pull request', () => {
  test('says so in pull_request (merged, merged_at once merged, draft, html_url); a plain issue has none', async () => {
    const owner = await newUser();
    const name = e2e.users.unique('issues-');
    expect((await owner.client.post('/user/repos', { name, auto_init: true })).status).toBe(201);
    const base = `/repos/${owner.username}/${name}`;
    expect((await owner.client.post(`${base}/issues`, { title: 'plain' })).status).toBe(201);
    const content = Buffer.from('feature\n').toString('base64');
    expect((await owner.client.post(`${base}/contents/f.txt`, { content, new_branch: 'topic' })).status).toBe(201);
    expect((await owner.client.post(`${base}/pulls`, { title: 'WIP: feature', head: 'topic', base: 'main' })).status).toBe(201);

    expect((await anonymous.get(`${base}/issues/1`)).body.pull_request).toBeNull();
    const open = (await anonymous.get(`${base}/issues/2`)).body.pull_request;
    expect(open).toEqual({ merged: false, draft: true, html_url: expect.stringMatching(new RegExp(`/${owner.username}/${name}/pulls/2$`)) });

    expect((await owner.client.patch(`${base}/pulls/2`, { title: 'feature' })).status).toBe(201);
    expect((await owner.client.post(`${base}/pulls/2/merge`, { do: 'merge' })).status).toBe(200);
    const listed = await anonymous.get(`${base}/issues?type=pulls&state=closed`);
    expect(listed.body.map((i: { number: number }) => i.number)).toEqual([2]);
    expect(listed.body[0].pull_request).toEqual({ merged: true, merged_at: expect.any(String), draft: false, html_url: open.html_url });
  });
});
