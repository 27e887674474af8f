// Notifications through the gateway: threads made by collaboration's consumer a moment after
// the change, for watchers and participants and never for the actor; Gitea's list, status
// and count operations; and a user who lost access to a private repository no longer sees
// its threads.
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import { bootE2e, type E2e, type Writer } from '../support/e2e.js';
import { eventually } from '../support/eventually.js';

jest.setTimeout(180_000);

let e2e: E2e;

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'notif-user' });
}, 180_000);

afterAll(() => e2e?.close());

const SCOPES = ['write:repository', 'write:issue', 'write:user', 'write:notification'];
const newUser = (): Promise<Writer> => e2e.newWriter({ scopes: SCOPES });
const b64 = (s: string) => Buffer.from(s).toString('base64');

async function newRepository(owner: Writer, options: { private?: boolean; autoInit?: boolean } = {}): Promise<string> {
  const name = e2e.users.unique('notified-');
  expect((await owner.client.post('/user/repos', { name, private: options.private ?? false, auto_init: options.autoInit ?? false })).status).toBe(201);
  return `/repos/${owner.username}/${name}`;
}

/** The user starts watching and the repository's creator watch has landed. */
async function watch(user: Writer, base: string): Promise<void> {
  expect((await user.client.put(`${base}/subscription`)).status).toBe(200);
}

const threadsOf = (user: Writer, query = '') => user.client.get(`/notifications${query}`);
const titles = (threads: Array<{ subject: { title: string } }>) => threads.map((t) => t.subject.title).sort();

describe('notification threads', () => {
  test('tell the watchers and the poster about a comment, never the commenter, with Gitea\'s subject', async () => {
    const owner = await newUser();
    const watcher = await newUser();
    const commenter = await newUser();
    const base = await newRepository(owner);
    await watch(watcher, base);
    expect((await owner.client.post(`${base}/issues`, { title: 'Needs eyes' })).status).toBe(201);
    const comment = await commenter.client.post(`${base}/issues/1/comments`, { body: 'Looking' });
    expect(comment.status).toBe(201);

    const list = await eventually(() => threadsOf(watcher), (r) => r.body.length === 1 && r.body[0].subject.latest_comment_url !== '', 'the watcher\'s thread');
    const [thread] = list.body;
    expect(list.headers.get('x-total-count')).toBe('1');
    expect(thread).toMatchObject({ unread: true, pinned: false, subject: { title: 'Needs eyes', type: 'Issue', state: 'open' } });
    expect(thread.subject.url).toMatch(new RegExp(`/api/v1${base}/issues/1$`));
    expect(thread.subject.html_url).toMatch(new RegExp(`${base.replace('/repos', '')}/issues/1$`));
    expect(thread.subject.latest_comment_url).toMatch(new RegExp(`/api/v1${base}/issues/comments/${comment.body.id}$`));
    expect(thread.subject.latest_comment_html_url).toMatch(new RegExp(`/issues/1#issuecomment-${comment.body.id}$`));
    expect(thread.url).toMatch(new RegExp(`/api/v1/notifications/threads/${thread.id}$`));
    expect(thread.repository.full_name).toBe(base.replace('/repos/', ''));
    expect(thread.repository.permissions).toBeUndefined();

    // The poster takes part; the commenter acted and gets nothing for it.
    await eventually(() => threadsOf(owner), (r) => r.body.length === 1, 'the poster\'s thread');
    expect((await threadsOf(commenter)).body).toEqual([]);
    expect((await commenter.client.get('/notifications/new')).body).toEqual({ new: 0 });
  });

  test('tell each watcher once about a pull request created through the API', async () => {
    const owner = await newUser();
    const watcher = await newUser();
    const base = await newRepository(owner, { autoInit: true });
    await watch(watcher, base);
    expect((await owner.client.post(`${base}/contents/feature.txt`, { content: b64('one\n'), new_branch: 'topic', message: 'Add feature' })).status).toBe(201);
    expect((await owner.client.post(`${base}/pulls`, { title: 'Add the feature', head: 'topic', base: 'main' })).status).toBe(201);
    // A later issue tells when the pull's events are all through the consumer (one at a time, in order).
    expect((await owner.client.post(`${base}/issues`, { title: 'After the pull' })).status).toBe(201);

    const list = await eventually(() => threadsOf(watcher), (r) => r.body.length === 2, 'the watcher\'s threads');
    expect(titles(list.body)).toEqual(['Add the feature', 'After the pull']);
    expect(list.body.find((t: { subject: { title: string } }) => t.subject.title === 'Add the feature').subject).toMatchObject({ type: 'Pull', state: 'open' });
    expect((await watcher.client.get('/notifications/new')).body).toEqual({ new: 2 });
    expect((await threadsOf(watcher, '?subject-type=pull')).body).toHaveLength(1);
    // The creator of the pull is not told about it.
    expect((await threadsOf(owner)).body).toEqual([]);
  });

  test('tell a user mentioned in a comment, who neither watches nor took part before', async () => {
    const owner = await newUser();
    const mentioned = await newUser();
    const base = await newRepository(owner);
    expect((await owner.client.post(`${base}/issues`, { title: 'Who knows?' })).status).toBe(201);
    expect((await owner.client.post(`${base}/issues/1/comments`, { body: `@${mentioned.username} do you?` })).status).toBe(201);
    const list = await eventually(() => threadsOf(mentioned), (r) => r.body.length === 1, 'the mentioned user\'s thread');
    expect(list.body[0].subject).toMatchObject({ title: 'Who knows?', type: 'Issue' });
  });

  test('tell an assignee about the assignment and a requested reviewer about the request, and no one else', async () => {
    const owner = await newUser();
    const assignee = await newUser();
    const reviewer = await newUser();
    const second = await newUser();
    const base = await newRepository(owner, { autoInit: true });
    for (const who of [assignee, reviewer, second]) {
      expect((await owner.client.put(`${base}/collaborators/${who.username}`, { permission: 'write' })).status).toBe(204);
    }
    expect((await owner.client.post(`${base}/issues`, { title: 'Take this one' })).status).toBe(201);
    expect((await owner.client.patch(`${base}/issues/1`, { assignees: [assignee.username] })).status).toBe(201);
    expect((await owner.client.post(`${base}/contents/review.txt`, { content: b64('look\n'), new_branch: 'look', message: 'Add' })).status).toBe(201);
    expect((await owner.client.post(`${base}/pulls`, { title: 'Look at this', head: 'look', base: 'main' })).status).toBe(201);
    expect((await owner.client.post(`${base}/pulls/2/requested_reviewers`, { reviewers: [reviewer.username] })).status).toBe(201);

    const assigned = await eventually(() => threadsOf(assignee), (r) => r.body.length === 1, 'the assignee\'s thread');
    expect(assigned.body[0].subject).toMatchObject({ title: 'Take this one', type: 'Issue' });
    const requested = await eventually(() => threadsOf(reviewer), (r) => r.body.length === 1, 'the reviewer\'s thread');
    expect(requested.body[0].subject).toMatchObject({ title: 'Look at this', type: 'Pull' });
    // Both threads came from the last two events: the assignee heard nothing of the pull, nor
    // the reviewer of the assignment, and the owner acted on everything.
    expect(titles((await threadsOf(assignee)).body)).toEqual(['Take this one']);
    expect(titles((await threadsOf(owner)).body)).toEqual([]);

    // The first reviewer reads the thread; asking a second reviewer tells the second only.
    expect((await reviewer.client.resetContent('PATCH', `/notifications/threads/${requested.body[0].id}?to-status=read`)).status).toBe(205);
    expect((await owner.client.post(`${base}/pulls/2/requested_reviewers`, { reviewers: [second.username] })).status).toBe(201);
    await eventually(() => threadsOf(second), (r) => r.body.length === 1, 'the second reviewer\'s thread');
    expect((await threadsOf(reviewer)).body).toEqual([]);
  });

  test('tell each member of a team asked to review a pull request', async () => {
    const owner = await e2e.newWriter({ scopes: [...SCOPES, 'write:organization'] });
    const members = [await newUser(), await newUser()];
    const org = e2e.users.unique('notify-org-');
    expect((await owner.client.post('/orgs', { username: org })).status).toBe(201);
    const team = await owner.client.post(`/orgs/${org}/teams`, { name: 'Reviewers', permission: 'write', units: ['repo.code', 'repo.pulls'] });
    expect(team.status).toBe(201);
    for (const member of members) expect((await owner.client.put(`/teams/${team.body.id}/members/${member.username}`)).status).toBe(204);
    const name = e2e.users.unique('notify-repo-');
    expect((await owner.client.post(`/orgs/${org}/repos`, { name, auto_init: true })).status).toBe(201);
    const base = `/repos/${org}/${name}`;
    expect((await owner.client.post(`${base}/contents/change.txt`, { content: b64('one\n'), new_branch: 'topic', message: 'Add' })).status).toBe(201);
    expect((await owner.client.post(`${base}/pulls`, { title: 'For the team', head: 'topic', base: 'main' })).status).toBe(201);
    expect((await owner.client.post(`${base}/pulls/1/requested_reviewers`, { team_reviewers: ['Reviewers'] })).status).toBe(201);

    for (const member of members) {
      const list = await eventually(() => threadsOf(member), (r) => r.body.length === 1, 'a team member\'s thread');
      expect(list.body[0].subject).toMatchObject({ title: 'For the team', type: 'Pull' });
    }
    expect((await threadsOf(owner)).body).toEqual([]);
  });

  test('tell the watchers again when an issue is edited or closed through the API', async () => {
    const owner = await newUser();
    const watcher = await newUser();
    const base = await newRepository(owner);
    await watch(watcher, base);
    expect((await owner.client.post(`${base}/issues`, { title: 'Draft' })).status).toBe(201);
    const [thread] = (await eventually(() => threadsOf(watcher), (r) => r.body.length === 1, 'the thread')).body;
    expect((await watcher.client.resetContent('PATCH', `/notifications/threads/${thread.id}`)).status).toBe(205);
    expect((await threadsOf(watcher)).body).toEqual([]);

    expect((await owner.client.patch(`${base}/issues/1`, { title: 'Final' })).status).toBe(201);
    const edited = await eventually(() => threadsOf(watcher), (r) => r.body.length === 1, 'the thread unread again');
    expect(edited.body[0]).toMatchObject({ id: thread.id, unread: true, subject: { title: 'Final', state: 'open' } });

    expect((await watcher.client.resetContent('PATCH', `/notifications/threads/${thread.id}`)).status).toBe(205);
    expect((await owner.client.patch(`${base}/issues/1`, { state: 'closed' })).status).toBe(201);
    const closed = await eventually(() => threadsOf(watcher), (r) => r.body.length === 1, 'the thread unread after closing');
    expect(closed.body[0].subject).toMatchObject({ title: 'Final', state: 'closed' });
  });

  test('answer the unread count as JSON with 200 whatever it is', async () => {
    const quiet = await newUser();
    const res = await quiet.client.get('/notifications/new');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toEqual({ new: 0 });
    expect((await e2e.anonymous.undeclared('GET', '/notifications/new')).status).toBe(401);
  });

  test('list pinned threads by default, read ones only when asked, and change status on request', async () => {
    const owner = await newUser();
    const watcher = await newUser();
    const base = await newRepository(owner);
    await watch(watcher, base);
    for (const title of ['first', 'second', 'third']) expect((await owner.client.post(`${base}/issues`, { title })).status).toBe(201);
    const list = await eventually(() => threadsOf(watcher), (r) => r.body.length === 3, 'three threads');
    const idOf = (title: string) => list.body.find((t: { subject: { title: string } }) => t.subject.title === title).id;

    const pinned = await watcher.client.resetContent('PATCH', `/notifications/threads/${idOf('first')}?to-status=pinned`);
    expect(pinned.status).toBe(205);
    expect(pinned.body).toMatchObject({ id: idOf('first'), pinned: true, unread: false });
    expect((await watcher.client.resetContent('PATCH', `/notifications/threads/${idOf('second')}`)).status).toBe(205);

    expect(titles((await threadsOf(watcher)).body)).toEqual(['first', 'third']);
    expect(titles((await threadsOf(watcher, '?status-types=read')).body)).toEqual(['second']);
    expect(titles((await threadsOf(watcher, '?all=true')).body)).toEqual(['first', 'second', 'third']);
    expect((await watcher.client.get('/notifications/new')).body).toEqual({ new: 1 });

    const marked = await watcher.client.resetContent('PUT', `/notifications?last_read_at=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    expect(marked.status).toBe(205);
    expect(titles(marked.body)).toEqual(['third']);
    expect(titles((await threadsOf(watcher)).body)).toEqual(['first']);
    expect((await watcher.client.get('/notifications/new')).body).toEqual({ new: 0 });

    const unread = await watcher.client.resetContent('PUT', `${base}/notifications?status-types=read&to-status=unread`);
    expect(unread.status).toBe(205);
    expect(titles(unread.body)).toEqual(['second', 'third']);
    const repoList = await watcher.client.get(`${base}/notifications`);
    expect(titles(repoList.body)).toEqual(['first', 'second', 'third']);
    expect(repoList.headers.get('x-total-count')).toBe('3');
    expect((await watcher.client.get(`/notifications?limit=1&page=2`)).body).toHaveLength(1);
  });

  test('bring a thread to the top of the list when it is marked, as Gitea moves its updated_at', async () => {
    const owner = await newUser();
    const watcher = await newUser();
    const base = await newRepository(owner);
    await watch(watcher, base);
    for (const title of ['older', 'newer']) expect((await owner.client.post(`${base}/issues`, { title })).status).toBe(201);
    const list = await eventually(() => threadsOf(watcher), (r) => r.body.length === 2, 'two threads');
    const order = (threads: Array<{ subject: { title: string } }>) => threads.map((t) => t.subject.title);
    expect(order(list.body)).toEqual(['newer', 'older']);
    const older = list.body[1];

    const pinned = await watcher.client.resetContent('PATCH', `/notifications/threads/${older.id}?to-status=pinned`);
    expect(pinned.status).toBe(205);
    expect(Date.parse(pinned.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(older.updated_at));
    expect(order((await threadsOf(watcher)).body)).toEqual(['older', 'newer']);

    // Marking all of them read moves each one marked.
    const read = await watcher.client.resetContent('PUT', '/notifications');
    expect(read.status).toBe(205);
    expect(order(read.body)).toEqual(['newer']);
    expect(order((await threadsOf(watcher, '?all=true')).body)).toEqual(['newer', 'older']);
  });

  test('refuse another user\'s thread and answer 404 for a missing one', async () => {
    const owner = await newUser();
    const watcher = await newUser();
    const other = await newUser();
    const base = await newRepository(owner);
    await watch(watcher, base);
    expect((await owner.client.post(`${base}/issues`, { title: 'Mine to read' })).status).toBe(201);
    const [thread] = (await eventually(() => threadsOf(watcher), (r) => r.body.length === 1, 'the thread')).body;

    expect((await watcher.client.get(`/notifications/threads/${thread.id}`)).body).toMatchObject({ id: thread.id, unread: true });
    expect((await other.client.get(`/notifications/threads/${thread.id}`)).status).toBe(403);
    expect((await other.client.resetContent('PATCH', `/notifications/threads/${thread.id}`)).status).toBe(403);
    expect((await watcher.client.get('/notifications/threads/999999999')).status).toBe(404);
    expect((await watcher.client.get('/notifications/threads/not-a-number')).status).toBe(404);
    // Nothing changed for the owner of the thread.
    expect((await watcher.client.get(`/notifications/threads/${thread.id}`)).body.unread).toBe(true);
  });

  test('are no longer shown to a user who lost access to the private repository', async () => {
    const owner = await newUser();
    const member = await newUser();
    const base = await newRepository(owner, { private: true });
    expect((await owner.client.put(`${base}/collaborators/${member.username}`, { permission: 'read' })).status).toBe(204);
    await watch(member, base);
    expect((await owner.client.post(`${base}/issues`, { title: 'Private matter' })).status).toBe(201);
    const [thread] = (await eventually(() => threadsOf(member), (r) => r.body.length === 1, 'the member\'s thread')).body;
    expect((await member.client.get('/notifications/new')).body).toEqual({ new: 1 });

    expect((await owner.client.delete(`${base}/collaborators/${member.username}`)).status).toBe(204);
    const after = await threadsOf(member);
    expect(after.body).toEqual([]);
    expect(after.headers.get('x-total-count')).toBe('0');
    expect((await member.client.get('/notifications/new')).body).toEqual({ new: 0 });
    expect((await member.client.get(`/notifications/threads/${thread.id}`)).status).toBe(404);
    expect((await member.client.undeclared('GET', `${base}/notifications`)).status).toBe(404);
  });
});
