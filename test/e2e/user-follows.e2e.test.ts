// Following: a signed-in user follows another user or an organization, asks whether they
// do, stops; both users' followers_count and following_count follow at once, and other
// services' copies of the users (a repository's owner) a moment later. Lists of followers
// and followings page like every list, show only the accounts the caller may see, and a
// user the caller may not see is 404 on every following route.
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { ApiClient } from '../support/api-client.js';
import type { TestUser } from '../support/accounts.js';
import { bootE2e, type E2e } from '../support/e2e.js';
import { eventually } from '../support/eventually.js';

jest.setTimeout(90_000);

let e2e: E2e;
let anonymous: ApiClient;
let admin: ApiClient;

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'follow-user' });
  ({ anonymous, admin } = e2e);
}, 180_000);

afterAll(() => e2e?.close());

const newUser = (fields: Record<string, unknown> = {}) => e2e.users.newUser(fields);
const logins = (body: Array<{ login: string }>) => body.map((u) => u.login);

async function counts(user: TestUser, as: ApiClient = anonymous) {
  const profile = await as.get(`/users/${user.username}`);
  expect(profile.status).toBe(200);
  return { followers: profile.body.followers_count as number, following: profile.body.following_count as number };
}

describe('following a user', () => {
  test('follow, check, unfollow: both users\' counts follow at once, and repeating either changes nothing', async () => {
    const fan = await newUser();
    const star = await newUser();
    expect((await fan.client.get(`/user/following/${star.username}`)).status).toBe(404);

    expect((await fan.client.put(`/user/following/${star.username}`)).status).toBe(204);
    expect((await fan.client.put(`/user/following/${star.username}`)).status).toBe(204);
    expect((await fan.client.get(`/user/following/${star.username}`)).status).toBe(204);
    expect((await anonymous.get(`/users/${fan.username}/following/${star.username}`)).status).toBe(204);
    expect((await anonymous.get(`/users/${star.username}/following/${fan.username}`)).status).toBe(404);
    expect(await counts(star)).toEqual({ followers: 1, following: 0 });
    expect(await counts(fan)).toEqual({ followers: 0, following: 1 });
    expect((await fan.client.get('/user')).body.following_count).toBe(1);
    expect((await star.client.get('/user')).body.followers_count).toBe(1);

    expect((await fan.client.delete(`/user/following/${star.username}`)).status).toBe(204);
    expect((await fan.client.delete(`/user/following/${star.username}`)).status).toBe(204);
    expect((await fan.client.get(`/user/following/${star.username}`)).status).toBe(404);
    expect(await counts(star)).toEqual({ followers: 0, following: 0 });
    expect((await fan.client.get('/user')).body.following_count).toBe(0);
  });

  test('following yourself changes nothing, as in Gitea', async () => {
    const me = await newUser();
    expect((await me.client.put(`/user/following/${me.username}`)).status).toBe(204);
    expect((await me.client.get(`/user/following/${me.username}`)).status).toBe(404);
    expect(await counts(me)).toEqual({ followers: 0, following: 0 });
    expect((await me.client.delete(`/user/following/${me.username}`)).status).toBe(204);
  });

  test('an unknown user is 404 on every following route', async () => {
    const me = await newUser();
    const nobody = e2e.users.unique('nobody');
    expect((await me.client.put(`/user/following/${nobody}`)).status).toBe(404);
    expect((await me.client.delete(`/user/following/${nobody}`)).status).toBe(404);
    expect((await me.client.get(`/user/following/${nobody}`)).status).toBe(404);
    expect((await anonymous.get(`/users/${nobody}/followers`)).status).toBe(404);
    expect((await anonymous.get(`/users/${nobody}/following`)).status).toBe(404);
    expect((await anonymous.get(`/users/${me.username}/following/${nobody}`)).status).toBe(404);
  });

  test('an organization can be followed: it shows in the follower\'s following and has the follower', async () => {
    const founder = await newUser();
    const fan = await newUser();
    const org = e2e.users.unique('follow-org');
    expect((await founder.client.post('/orgs', { username: org })).status).toBe(201);
    expect((await fan.client.put(`/user/following/${org}`)).status).toBe(204);
    expect((await fan.client.get(`/user/following/${org}`)).status).toBe(204);
    expect(logins((await fan.client.get('/user/following')).body)).toEqual([org]);
    expect(logins((await anonymous.get(`/users/${org}/followers`)).body)).toEqual([fan.username]);
    expect(await counts(fan)).toEqual({ followers: 0, following: 1 });
  });

  test('needs a signed-in caller; following needs write:user and the lists read:user', async () => {
    const me = await newUser();
    const other = await newUser();
    expect((await anonymous.put(`/user/following/${other.username}`)).status).toBe(401);
    expect((await anonymous.get('/user/followers')).status).toBe(401);
    const reader = anonymous.as({ token: await e2e.users.newToken(me, ['read:user']) });
    expect((await reader.put(`/user/following/${other.username}`)).status).toBe(403);
    expect((await reader.get('/user/following')).status).toBe(200);
    const repositoriesOnly = anonymous.as({ token: await e2e.users.newToken(me, ['read:repository']) });
    expect((await repositoriesOnly.get('/user/followers')).status).toBe(403);
    const writer = anonymous.as({ token: await e2e.users.newToken(me, ['write:user']) });
    expect((await writer.put(`/user/following/${other.username}`)).status).toBe(204);
  });
});

describe('lists of followers and followings', () => {
  test('page with limit, X-Total-Count and Link, in the order followed', async () => {
    const star = await newUser();
    const fans = [await newUser(), await newUser(), await newUser()];
    for (const fan of fans) expect((await fan.client.put(`/user/following/${star.username}`)).status).toBe(204);

    const first = await anonymous.get(`/users/${star.username}/followers?limit=2`);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-total-count')).toBe('3');
    expect(first.headers.get('link')).toContain('rel="next"');
    expect(logins(first.body)).toEqual(fans.slice(0, 2).map((f) => f.username));
    const second = await anonymous.get(`/users/${star.username}/followers?limit=2&page=2`);
    expect(logins(second.body)).toEqual([fans[2].username]);
    expect(first.body[0]).toMatchObject({ login: fans[0].username, following_count: 1, followers_count: 0 });

    const mine = await star.client.get('/user/followers');
    expect(mine.headers.get('x-total-count')).toBe('3');
    expect(logins(mine.body)).toEqual(fans.map((f) => f.username));
    const following = await fans[1].client.get('/user/following');
    expect(logins(following.body)).toEqual([star.username]);
    expect(following.body[0].followers_count).toBe(3);
    expect(logins((await anonymous.get(`/users/${fans[1].username}/following`)).body)).toEqual([star.username]);
  });

  test('a private follower shows only to those who may see them: themselves, whom they follow, admins', async () => {
    const star = await newUser();
    const secret = await newUser({ visibility: 'private' });
    const stranger = await newUser();
    expect((await secret.client.put(`/user/following/${star.username}`)).status).toBe(204);

    const asAnonymous = await anonymous.get(`/users/${star.username}/followers`);
    expect(asAnonymous.body).toEqual([]);
    expect(asAnonymous.headers.get('x-total-count')).toBe('0');
    expect((await stranger.client.get(`/users/${star.username}/followers`)).body).toEqual([]);
    expect(logins((await star.client.get('/user/followers')).body)).toEqual([secret.username]);
    expect(logins((await admin.get(`/users/${star.username}/followers`)).body)).toEqual([secret.username]);
    expect(logins((await secret.client.get('/user/following')).body)).toEqual([star.username]);
    // The count is the account's own, as Gitea keeps it; only the list is narrowed.
    expect(await counts(star)).toEqual({ followers: 1, following: 0 });
  });

  test('a private user is 404 on following routes to a caller who may not see them', async () => {
    const secret = await newUser({ visibility: 'private' });
    const stranger = await newUser();
    expect((await stranger.client.put(`/user/following/${secret.username}`)).status).toBe(404);
    expect((await stranger.client.get(`/user/following/${secret.username}`)).status).toBe(404);
    expect((await anonymous.get(`/users/${secret.username}/followers`)).status).toBe(404);
    expect((await anonymous.get(`/users/${secret.username}/following`)).status).toBe(404);
    expect((await secret.client.get(`/users/${secret.username}/followers`)).status).toBe(200);
  });
});

describe('counts elsewhere', () => {
  test('a repository\'s owner shows the new follower count a moment later', async () => {
    const owner = await e2e.newWriter();
    const fan = await newUser();
    expect((await owner.client.post('/user/repos', { name: 'followed' })).status).toBe(201);
    expect((await fan.client.put(`/user/following/${owner.username}`)).status).toBe(204);
    await eventually(() => anonymous.get(`/repos/${owner.username}/followed`), (res) => res.body.owner?.followers_count === 1, 'owner.followers_count 1');
  });

  test('deleting a user takes away their follows and moves the counts of those they followed', async () => {
    const star = await newUser();
    const leaving = await newUser();
    expect((await leaving.client.put(`/user/following/${star.username}`)).status).toBe(204);
    expect(await counts(star)).toEqual({ followers: 1, following: 0 });
    expect((await admin.delete(`/admin/users/${leaving.username}`)).status).toBe(204);
    expect(await counts(star)).toEqual({ followers: 0, following: 0 });
    expect((await anonymous.get(`/users/${star.username}/followers`)).body).toEqual([]);
  });
});
