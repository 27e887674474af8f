// Searching issues across repositories (GET /repos/issues/search) through the gateway:
// every repository the caller may see and no other, Gitea's filters, paging with
// DEFAULT_PAGING_NUM, and Gitea's 400s for an unknown owner or team.
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e, type Writer } from '../support/e2e.js';

jest.setTimeout(120_000);

let e2e: E2e;
let anonymous: ApiClient;

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'isearch' });
  ({ anonymous } = e2e);
}, 180_000);

afterAll(() => e2e?.close());

const SCOPES = ['write:repository', 'write:issue', 'write:user', 'write:organization'];
const newUser = (): Promise<Writer> => e2e.newWriter({ scopes: SCOPES });

async function newRepository(owner: Writer, options: { private?: boolean; org?: string } = {}): Promise<string> {
  const name = e2e.users.unique('search-');
  const res = await owner.client.post(options.org ? `/orgs/${options.org}/repos` : '/user/repos', { name, private: options.private ?? false });
  expect(res.status).toBe(201);
  return `/repos/${options.org ?? owner.username}/${name}`;
}

async function openIssue(who: Writer, base: string, body: Record<string, unknown>): Promise<{ id: number; number: number; title: string }> {
  const res = await who.client.post(`${base}/issues`, body);
  expect(res.status).toBe(201);
  return res.body;
}

const titles = (body: Array<{ title: string }>) => body.map((i) => i.title).sort();

describe('searching issues across repositories', () => {
  test('finds issues of every repository the caller may see, never a private one of someone else', async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const word = e2e.users.unique('needle');
    const open = await newRepository(owner);
    const hidden = await newRepository(owner, { private: true });
    await openIssue(owner, open, { title: `${word} in public` });
    await openIssue(owner, hidden, { title: `${word} in private` });

    const mine = await owner.client.get(`/repos/issues/search?q=${word}`);
    expect(mine.status).toBe(200);
    expect(titles(mine.body)).toEqual([`${word} in private`, `${word} in public`]);
    expect(mine.headers.get('x-total-count')).toBe('2');
    // Each issue says which repository it is in.
    const [, , login, name] = hidden.split('/');
    expect(mine.body.find((i: { title: string }) => i.title.endsWith('private')).repository).toMatchObject({ owner: login, name, full_name: `${login}/${name}` });

    for (const client of [stranger.client, anonymous]) {
      const res = await client.get(`/repos/issues/search?q=${word}`);
      expect(res.status).toBe(200);
      expect(titles(res.body)).toEqual([`${word} in public`]);
    }

    // A collaborator sees the private one too.
    expect((await owner.client.put(`${hidden}/collaborators/${stranger.username}`, { permission: 'read' })).status).toBe(204);
    expect(titles((await stranger.client.get(`/repos/issues/search?q=${word}`)).body)).toEqual([`${word} in private`, `${word} in public`]);
  });

  test('filters by owner, state, type, label names, milestone names and what concerns the caller', async () => {
    const owner = await newUser();
    const helper = await newUser();
    const first = await newRepository(owner);
    const second = await newRepository(owner);
    const bug = (await owner.client.post(`${first}/labels`, { name: 'bug', color: '#ee0701' })).body;
    const v1 = (await owner.client.post(`${second}/milestones`, { title: 'v1' })).body;
    expect((await owner.client.put(`${second}/collaborators/${helper.username}`, { permission: 'write' })).status).toBe(204);
    await openIssue(owner, first, { title: 'labelled', labels: [bug.id] });
    await openIssue(owner, second, { title: 'planned', milestone: v1.id, assignees: [helper.username] });
    await openIssue(owner, second, { title: 'closed one', closed: true });
    await openIssue(helper, second, { title: `by the helper, cc @${owner.username}`, body: `@${owner.username} look` });

    const of = (query: string, client = owner.client) => client.get(`/repos/issues/search?owner=${owner.username}&${query}`);
    expect(titles((await of('')).body)).toEqual([`by the helper, cc @${owner.username}`, 'labelled', 'planned']);
    expect(titles((await of('state=closed')).body)).toEqual(['closed one']);
    expect((await of('state=all')).headers.get('x-total-count')).toBe('4');
    expect((await of('type=pulls')).body).toEqual([]);
    expect(titles((await of('labels=bug')).body)).toEqual(['labelled']);
    expect(titles((await of('milestones=v1')).body)).toEqual(['planned']);
    expect(titles((await of('assigned=true', helper.client)).body)).toEqual(['planned']);
    expect(titles((await of('created=true', helper.client)).body)).toEqual([`by the helper, cc @${owner.username}`]);
    expect(titles((await of('mentioned=true')).body)).toEqual([`by the helper, cc @${owner.username}`]);
    expect((await of(`since=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`)).body).toEqual([]);
  });

  test('pages with DEFAULT_PAGING_NUM by default, with Link and X-Total-Count', async () => {
    const owner = await newUser();
    const base = await newRepository(owner);
    for (let n = 0; n < 32; n++) await openIssue(owner, base, { title: `paged ${n}` });
    const first = await owner.client.get(`/repos/issues/search?owner=${owner.username}`);
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(30);
    expect(first.headers.get('x-total-count')).toBe('32');
    expect(first.headers.get('link')).toContain('rel="next"');
    const second = await owner.client.get(`/repos/issues/search?owner=${owner.username}&page=2`);
    expect(titles(second.body)).toEqual(['paged 0', 'paged 1']);
    expect((await owner.client.get(`/repos/issues/search?owner=${owner.username}&limit=5`)).body).toHaveLength(5);
  });

  test('filters by an organization team, and refuses an unknown owner or team, or a team without its organization', async () => {
    const owner = await newUser();
    const org = e2e.users.unique('searchorg');
    expect((await owner.client.post('/orgs', { username: org })).status).toBe(201);
    const base = await newRepository(owner, { org });
    await openIssue(owner, base, { title: 'org issue' });
    // The Owners team has every repository of the organization.
    expect(titles((await owner.client.get(`/repos/issues/search?owner=${org}&team=Owners`)).body)).toEqual(['org issue']);

    const unknownOwner = await owner.client.get(`/repos/issues/search?owner=${e2e.users.unique('nobody')}`);
    expect(unknownOwner.status).toBe(400);
    const unknownTeam = await owner.client.get(`/repos/issues/search?owner=${org}&team=no-such-team`);
    expect(unknownTeam.status).toBe(400);
    const teamAlone = await owner.client.get('/repos/issues/search?team=Owners');
    expect(teamAlone.status).toBe(400);
    expect((await owner.client.get('/repos/issues/search?since=yesterday')).status).toBe(422);
  });
});
