// Who can be assigned through the gateway: GET /repos/{o}/{r}/assignees lists the owner and
// collaborators with write access (members of an organization's teams with access too),
// the checks answer 204 or 404, and assigning anyone else is refused as Gitea refuses it,
// on issue and pull create and edit and on POST /issues/{index}/assignees.
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e, type Writer } from '../support/e2e.js';

jest.setTimeout(120_000);

let e2e: E2e;
let anonymous: ApiClient;

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'assignee', events: 'collaboration' });
  ({ anonymous } = e2e);
}, 180_000);

afterAll(() => e2e?.close());

const SCOPES = ['write:repository', 'write:issue', 'write:user', 'write:organization'];
const newUser = (): Promise<Writer> => e2e.newWriter({ scopes: SCOPES });

async function newRepository(owner: Writer, options: { private?: boolean; org?: string } = {}): Promise<string> {
  const name = e2e.users.unique('assign-');
  const res = await owner.client.post(options.org ? `/orgs/${options.org}/repos` : '/user/repos', { name, private: options.private ?? false });
  expect(res.status).toBe(201);
  return `/repos/${options.org ?? owner.username}/${name}`;
}

/** A repository with a writer and a reader among its collaborators. */
async function team(): Promise<{ owner: Writer; writer: Writer; reader: Writer; base: string }> {
  const owner = await newUser();
  const writer = await newUser();
  const reader = await newUser();
  const base = await newRepository(owner);
  expect((await owner.client.put(`${base}/collaborators/${writer.username}`, { permission: 'write' })).status).toBe(204);
  expect((await owner.client.put(`${base}/collaborators/${reader.username}`, { permission: 'read' })).status).toBe(204);
  return { owner, writer, reader, base };
}

const logins = (body: Array<{ login: string }>) => body.map((u) => u.login).sort();

describe('who can be assigned', () => {
  test('lists the owner and writers, not readers', async () => {
    const { owner, writer, base } = await team();
    const res = await anonymous.get(`${base}/assignees`);
    expect(res.status).toBe(200);
    expect(logins(res.body)).toEqual([owner.username, writer.username].sort());
    expect((await anonymous.get(`${base}/assignees/${writer.username}`)).status).toBe(204);
  });

  test('checks a user against the repository and an issue: 204 for a writer, 404 otherwise', async () => {
    const { owner, writer, reader, base } = await team();
    expect((await owner.client.post(`${base}/issues`, { title: 'x' })).status).toBe(201);
    expect((await owner.client.get(`${base}/assignees/${reader.username}`)).status).toBe(404);
    expect((await owner.client.get(`${base}/assignees/${e2e.users.unique('ghost')}`)).status).toBe(404);
    expect((await owner.client.get(`${base}/issues/1/assignees/${writer.username}`)).status).toBe(204);
    expect((await owner.client.get(`${base}/issues/1/assignees/${reader.username}`)).status).toBe(404);
    expect((await owner.client.get(`${base}/issues/99/assignees/${writer.username}`)).status).toBe(404);
  });

  test('never lists the organization itself, and lists its owners', async () => {
    const owner = await newUser();
    const org = e2e.users.unique('assignorg');
    expect((await owner.client.post('/orgs', { username: org })).status).toBe(201);
    const base = await newRepository(owner, { org });
    const res = await owner.client.get(`${base}/assignees`);
    expect(res.status).toBe(200);
    // The organization itself is never an assignee; its owners are.
    expect(logins(res.body)).toEqual([owner.username]);
  });

  test('lists members of a team with write access to the repository, not of a team that only reads', async () => {
    const owner = await newUser();
    const writer = await newUser();
    const reader = await newUser();
    const org = e2e.users.unique('teamorg');
    expect((await owner.client.post('/orgs', { username: org })).status).toBe(201);
    const base = await newRepository(owner, { org });
    const writers = await owner.client.post(`/orgs/${org}/teams`, { name: 'writers', permission: 'write', units: ['repo.code', 'repo.issues'], includes_all_repositories: true });
    const readers = await owner.client.post(`/orgs/${org}/teams`, { name: 'readers', permission: 'read', units: ['repo.code', 'repo.issues'], includes_all_repositories: true });
    expect((await owner.client.put(`/teams/${writers.body.id}/members/${writer.username}`)).status).toBe(204);
    expect((await owner.client.put(`/teams/${readers.body.id}/members/${reader.username}`)).status).toBe(204);
    // Team memberships reach the repository service through identity's events: wait for them.
    const deadline = Date.now() + 60_000;
    let listed: string[] = [];
    while (Date.now() < deadline) {
      listed = logins((await owner.client.get(`${base}/assignees`)).body);
      if (listed.includes(writer.username)) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(listed).toEqual([owner.username, writer.username].sort());
    expect((await owner.client.post(`${base}/issues`, { title: 'for the team', assignees: [writer.username] })).status).toBe(201);
    expect((await owner.client.post(`${base}/issues`, { title: 'not for readers', assignees: [reader.username] })).status).toBe(422);
  });

  test('hides the assignees of a private repository from strangers', async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const base = await newRepository(owner, { private: true });
    expect((await stranger.client.get(`${base}/assignees`)).status).toBe(404);
    expect((await owner.client.get(`${base}/assignees`)).status).toBe(200);
  });
});

describe('assigning', () => {
  test('refuses an assignee without write access when opening or editing an issue, and changes nothing', async () => {
    const { owner, writer, reader, base } = await team();
    const refused = await owner.client.post(`${base}/issues`, { title: 'not for a reader', assignees: [reader.username] });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe(`user doesn't have access to repo [user_id: ${reader.id}, repo_name: ${base.split('/')[3]}]`);
    expect((await owner.client.get(`${base}/issues?state=all`)).body).toEqual([]);

    const issue = await owner.client.post(`${base}/issues`, { title: 'for a writer', assignees: [writer.username] });
    expect(issue.status).toBe(201);
    expect(logins(issue.body.assignees)).toEqual([writer.username]);
    // On edit Gitea reports it as a permission error (its contract declares no 422 there).
    const edit = await owner.client.patch(`${base}/issues/${issue.body.number}`, { assignees: [writer.username, reader.username] });
    expect(edit.status).toBe(403);
    expect(logins((await owner.client.get(`${base}/issues/${issue.body.number}`)).body.assignees)).toEqual([writer.username]);
    expect((await owner.client.post(`${base}/issues`, { title: 'nobody', assignees: [e2e.users.unique('ghost')] })).status).toBe(422);
  });

  test('adds and removes assignees, refusing one without access (403) and a caller who cannot write (403)', async () => {
    const { owner, writer, reader, base } = await team();
    const issue = (await owner.client.post(`${base}/issues`, { title: 'share the work' })).body;
    const added = await owner.client.post(`${base}/issues/${issue.number}/assignees`, { assignees: [writer.username, owner.username] });
    expect(added.status).toBe(201);
    expect(logins(added.body.assignees)).toEqual([owner.username, writer.username].sort());

    const refused = await owner.client.post(`${base}/issues/${issue.number}/assignees`, { assignees: [reader.username] });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain("user doesn't have access to repo");
    expect((await reader.client.post(`${base}/issues/${issue.number}/assignees`, { assignees: [owner.username] })).status).toBe(403);

    const removed = await owner.client.delete(`${base}/issues/${issue.number}/assignees`, { assignees: [owner.username] });
    expect(removed.status).toBe(200);
    expect(logins(removed.body.assignees)).toEqual([writer.username]);
    // The change is an event webhooks fire on.
    const event = await e2e.recorder.eventMatching((e) => e.subject === 'collaboration.issue.unassigned' && e.payload.issue?.id === issue.id);
    expect(event.payload).toMatchObject({ action: 'unassigned', assignee: { login: owner.username } });
  });
});
