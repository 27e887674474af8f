// Stars: a signed-in user stars a repository they can see, asks whether they do, unstars it;
// the repository's stars_count follows at once, the user's starred_repos_count a moment
// later (identity counts from repository's star events); stargazers and starred lists show
// only what the caller may see; a private repository the caller cannot see is 404 everywhere.
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e, type Writer } from '../support/e2e.js';
import { eventually } from '../support/eventually.js';

jest.setTimeout(90_000);

let e2e: E2e;
let anonymous: ApiClient;

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'star-user' });
  ({ anonymous } = e2e);
}, 180_000);

afterAll(() => e2e?.close());

const newUser = (): Promise<Writer> => e2e.newWriter({ scopes: ['write:repository', 'write:user'] });

async function newRepository(owner: Writer, name: string, options: { private?: boolean } = {}): Promise<string> {
  expect((await owner.client.post('/user/repos', { name, private: options.private ?? false })).status).toBe(201);
  return `${owner.username}/${name}`;
}

describe('starring a repository', () => {
  test('star, check, unstar: stars_count follows at once, and repeating either changes nothing', async () => {
    const owner = await newUser();
    const fan = await newUser();
    const full = await newRepository(owner, 'shiny');
    const stars = async () => (await anonymous.get(`/repos/${full}`)).body.stars_count as number;
    expect(await stars()).toBe(0);
    expect((await fan.client.get(`/user/starred/${full}`)).status).toBe(404);

    expect((await fan.client.put(`/user/starred/${full}`)).status).toBe(204);
    expect((await fan.client.put(`/user/starred/${full}`)).status).toBe(204);
    expect((await owner.client.put(`/user/starred/${full}`)).status).toBe(204);
    expect((await fan.client.get(`/user/starred/${full}`)).status).toBe(204);
    expect(await stars()).toBe(2);

    expect((await fan.client.delete(`/user/starred/${full}`)).status).toBe(204);
    expect((await fan.client.delete(`/user/starred/${full}`)).status).toBe(204);
    expect((await fan.client.get(`/user/starred/${full}`)).status).toBe(404);
    expect(await stars()).toBe(1);
  });

  test('starring needs a signed-in caller', async () => {
    const owner = await newUser();
    const full = await newRepository(owner, 'anon-star');
    expect((await anonymous.put(`/user/starred/${full}`)).status).toBe(401);
  });

  test('a private repository the caller cannot see is 404 on every star route; its owner stars it', async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const full = await newRepository(owner, 'hidden', { private: true });
    expect((await owner.client.put(`/user/starred/${full}`)).status).toBe(204);
    expect((await stranger.client.put(`/user/starred/${full}`)).status).toBe(404);
    expect((await stranger.client.delete(`/user/starred/${full}`)).status).toBe(404);
    expect((await stranger.client.get(`/user/starred/${full}`)).status).toBe(404);
    expect((await stranger.client.get(`/repos/${full}/stargazers`)).status).toBe(404);
    expect((await anonymous.get(`/repos/${full}/stargazers`)).status).toBe(404);
    expect((await owner.client.get(`/repos/${full}/stargazers`)).body.map((u: { login: string }) => u.login)).toEqual([owner.username]);
  });
});

describe('a user\'s starred_repos_count', () => {
  const starredCount = async (user: Writer) => {
    const profile = await anonymous.get(`/users/${user.username}`);
    expect(profile.status).toBe(200);
    return profile.body.starred_repos_count as number;
  };

  test('counts the repositories the user stars, following a star and an unstar', async () => {
    const owner = await newUser();
    const fan = await newUser();
    const first = await newRepository(owner, 'counted-one');
    const second = await newRepository(owner, 'counted-two');
    expect(await starredCount(fan)).toBe(0);

    expect((await fan.client.put(`/user/starred/${first}`)).status).toBe(204);
    expect((await fan.client.put(`/user/starred/${second}`)).status).toBe(204);
    expect((await fan.client.put(`/user/starred/${second}`)).status).toBe(204);
    expect(await eventually(() => starredCount(fan), (n) => n === 2, 'the user\'s two stars counted')).toBe(2);

    expect((await fan.client.delete(`/user/starred/${first}`)).status).toBe(204);
    expect(await eventually(() => starredCount(fan), (n) => n === 1, 'the unstar counted')).toBe(1);
    // The owner starred nothing.
    expect(await starredCount(owner)).toBe(0);
  });

  test('shows in the issues the user opened and as a repository\'s owner, which other services learn from identity', async () => {
    const owner = await e2e.newWriter({ scopes: ['write:repository', 'write:user', 'write:issue'] });
    const other = await newUser();
    const own = await newRepository(owner, 'own-issues');
    const theirs = await newRepository(other, 'starred-by-owner');
    expect((await owner.client.put(`/user/starred/${theirs}`)).status).toBe(204);
    const issue = await owner.client.post(`/repos/${own}/issues`, { title: 'Counted?' });
    expect(issue.status).toBe(201);

    const posterCount = async () => (await anonymous.get(`/repos/${own}/issues/${issue.body.number}`)).body.user.starred_repos_count as number;
    expect(await eventually(posterCount, (n) => n === 1, 'the poster\'s star counted in issue JSON')).toBe(1);
    const ownerCount = async () => (await anonymous.get(`/repos/${own}`)).body.owner.starred_repos_count as number;
    expect(await eventually(ownerCount, (n) => n === 1, 'the owner\'s star counted in repository JSON')).toBe(1);
  });

  test('drops a deleted repository\'s star', async () => {
    const owner = await newUser();
    const fan = await newUser();
    const kept = await newRepository(owner, 'kept');
    const doomed = await newRepository(owner, 'doomed');
    expect((await fan.client.put(`/user/starred/${kept}`)).status).toBe(204);
    expect((await fan.client.put(`/user/starred/${doomed}`)).status).toBe(204);
    await eventually(() => starredCount(fan), (n) => n === 2, 'both stars counted');

    expect((await owner.client.delete(`/repos/${doomed}`)).status).toBe(204);
    expect(await eventually(() => starredCount(fan), (n) => n === 1, 'the deleted repository\'s star dropped')).toBe(1);
  });
});

describe('a deleted user', () => {
  test('stars no more: the repositories they starred count one fewer', async () => {
    const owner = await newUser();
    const leaving = await newUser();
    const full = await newRepository(owner, 'left-behind');
    expect((await leaving.client.put(`/user/starred/${full}`)).status).toBe(204);
    expect((await anonymous.get(`/repos/${full}`)).body.stars_count).toBe(1);
    expect((await e2e.admin.delete(`/admin/users/${leaving.username}`)).status).toBe(204);
    const after = await eventually(async () => (await anonymous.get(`/repos/${full}`)).body.stars_count as number, (n) => n === 0, 'the star going with its user');
    expect(after).toBe(0);
    expect((await anonymous.get(`/repos/${full}/stargazers`)).body).toEqual([]);
  });
});

describe('lists', () => {
  test('stargazers lists who stars a repository, in the order they starred, with a total', async () => {
    const owner = await newUser();
    const first = await newUser();
    const second = await newUser();
    const full = await newRepository(owner, 'popular');
    expect((await first.client.put(`/user/starred/${full}`)).status).toBe(204);
    expect((await second.client.put(`/user/starred/${full}`)).status).toBe(204);
    const listed = await anonymous.get(`/repos/${full}/stargazers`);
    expect(listed.status).toBe(200);
    expect(listed.body.map((u: { login: string }) => u.login)).toEqual([first.username, second.username]);
    expect(listed.headers.get('x-total-count')).toBe('2');
    const page = await anonymous.get(`/repos/${full}/stargazers?limit=1&page=2`);
    expect(page.body.map((u: { login: string }) => u.login)).toEqual([second.username]);
  });

  test('/repos/search?sort=stars orders repositories by how many star them', async () => {
    const owner = await newUser();
    const fans = [await newUser(), await newUser()];
    const some = await newRepository(owner, 'some-stars');
    const most = await newRepository(owner, 'most-stars');
    await newRepository(owner, 'no-stars');
    for (const fan of fans) expect((await fan.client.put(`/user/starred/${most}`)).status).toBe(204);
    expect((await fans[0]!.client.put(`/user/starred/${some}`)).status).toBe(204);
    const found = await anonymous.get(`/repos/search?q=-stars&sort=stars&order=desc&limit=50`);
    const mine = (found.body.data as Array<{ full_name: string; stars_count: number }>).filter((r) => r.full_name.startsWith(`${owner.username}/`));
    expect(mine.map((r) => [r.full_name, r.stars_count])).toEqual([[most, 2], [some, 1], [`${owner.username}/no-stars`, 0]]);
  });

  test('/user/starred and /users/{username}/starred list the starred repositories the caller may see', async () => {
    const owner = await newUser();
    const fan = await newUser();
    const open = await newRepository(owner, 'open');
    const secret = await newRepository(owner, 'secret', { private: true });
    expect((await owner.client.put(`/repos/${secret}/collaborators/${fan.username}`, { permission: 'read' })).status).toBe(204);
    expect((await fan.client.put(`/user/starred/${open}`)).status).toBe(204);
    expect((await fan.client.put(`/user/starred/${secret}`)).status).toBe(204);

    const mine = await fan.client.get('/user/starred');
    expect(mine.status).toBe(200);
    expect(mine.body.map((r: { full_name: string }) => r.full_name).sort()).toEqual([open, secret].sort());
    expect(mine.headers.get('x-total-count')).toBe('2');
    expect(mine.body.find((r: { full_name: string }) => r.full_name === open).stars_count).toBe(1);

    // Someone who cannot see the private one sees only the public one.
    const seen = await anonymous.get(`/users/${fan.username}/starred`);
    expect(seen.body.map((r: { full_name: string }) => r.full_name)).toEqual([open]);
    expect(seen.headers.get('x-total-count')).toBe('1');
    expect((await anonymous.get('/users/no-such-user-anywhere/starred')).status).toBe(404);
  });
});
