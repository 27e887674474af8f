// Integration test: following over real gRPC, PostgreSQL and NATS JetStream. A follow moves
// both users' counts in its transaction and announces both as identity.user.updated; lists
// show only the accounts the caller may see (Gitea's isUserVisibleToViewerCond); deleting a
// user or an organization takes its follows and moves the others' counts.
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { ANONYMOUS, SYSTEM, type Caller, type ServiceClient } from '@anvil/kit';
import { loadAnvilGrpc, type identity } from '@anvil/proto';
import type { Identity } from '../src/domain/context.js';
import type { Orgs } from '../src/domain/orgs.js';
import { argon2Hasher } from '../src/domain/password.js';
import { identityGrpcService } from '../src/grpc/identity-service.js';
import { orgGrpcService } from '../src/grpc/org-service.js';
import { identityStore } from '../src/store/identity-store.js';
import { orgStore } from '../src/store/org-store.js';
import { failureOf as failure } from './support/fixtures.js';
import { TEST_SETTINGS } from './support/memory-store.js';
import { identityTestbed, type IdentityTestbed, type IdentityTestEvents } from './support/testbed.js';

let tb: IdentityTestbed;
let events: IdentityTestEvents;
let users: ServiceClient<identity.IdentityServiceClient>;
let orgs: ServiceClient<identity.OrgServiceClient>;

// ---- helpers ---------------------------------------------------------------------------

const asCaller = (user: identity.User, scopes = ['all']): Caller =>
  ({ userId: user.id, login: user.login, isAdmin: user.is_admin, restricted: user.restricted, scopes });

let counter = 0;
const name = (prefix: string) => `${prefix}${++counter}_${tb.runId.slice(-4)}`;
async function newUser(extra: Partial<identity.CreateUserRequestInput> = {}): Promise<identity.User> {
  const login = name('fan');
  return users.CreateUser({ login, email: `${login}@example.com`, password: `pw-${login}-secret`, ...extra }, { caller: SYSTEM });
}

const follow = (who: identity.User, whom: identity.User) => users.FollowUser({ user_id: who.id, follow_id: whom.id }, { caller: asCaller(who) });
const unfollow = (who: identity.User, whom: identity.User) => users.UnfollowUser({ user_id: who.id, follow_id: whom.id }, { caller: asCaller(who) });
const followsNow = async (who: identity.User, whom: identity.User) => (await users.IsFollowing({ user_id: who.id, follow_id: whom.id }, { caller: ANONYMOUS })).following;

async function countsOf(user: identity.User) {
  const now = await users.GetUser({ id: user.id }, { caller: SYSTEM });
  return { followers: Number(now.num_followers), following: Number(now.num_following) };
}

async function followerLogins(user: identity.User, caller: Caller) {
  const page = await users.ListFollowers({ user_id: user.id, page: { page: 1, limit: 50 } }, { caller });
  return { logins: page.users.map((u) => u.login), total: Number(page.total) };
}

/** identity.user.updated events about `user` published so far. */
const updatesOf = (user: identity.User) => events.seen.filter((e) => e.subject === 'identity.user.updated' && (e.payload.user as identity.User).id === user.id);

// ---- setup -----------------------------------------------------------------------------

beforeAll(async () => {
  tb = await identityTestbed('follows');
  events = await tb.events();
  const { onPublished } = events;
  const identityCtx: Identity = { store: identityStore(tb.db, { onPublished }), hasher: argon2Hasher(), settings: TEST_SETTINGS };
  const orgsCtx: Orgs = { store: orgStore(tb.db, { onPublished }), settings: TEST_SETTINGS };
  const grpc = await tb.serve([identityGrpcService(identityCtx), orgGrpcService(orgsCtx)]);
  const { anvil } = loadAnvilGrpc();
  users = grpc.client<identity.IdentityServiceClient>(anvil.identity.v1.IdentityService);
  orgs = grpc.client<identity.OrgServiceClient>(anvil.identity.v1.OrgService);
}, 30_000);

afterAll(() => tb?.close(), 30_000);

// ---- behaviour -------------------------------------------------------------------------

describe('following', () => {
  it('moves both users\' counts and announces both as identity.user.updated, with the new counts', async () => {
    const fan = await newUser();
    const star = await newUser();
    await follow(fan, star);

    expect(await followsNow(fan, star)).toBe(true);
    expect(await followsNow(star, fan)).toBe(false);
    expect(await countsOf(fan)).toEqual({ followers: 0, following: 1 });
    expect(await countsOf(star)).toEqual({ followers: 1, following: 0 });
    const starUpdated = await events.eventOf('identity.user.updated', (p) => p.user.id === star.id);
    expect(starUpdated.payload.user).toMatchObject({ num_followers: 1, num_following: 0 });
    const fanUpdated = await events.eventOf('identity.user.updated', (p) => p.user.id === fan.id);
    expect(fanUpdated.payload.user).toMatchObject({ num_followers: 0, num_following: 1 });

    await unfollow(fan, star);
    expect(await followsNow(fan, star)).toBe(false);
    expect(await countsOf(star)).toEqual({ followers: 0, following: 0 });
    await events.eventOf('identity.user.updated', (p) => p.user.id === star.id && Number(p.user.num_followers) === 0);
  });

  it('changes and announces nothing when following again, following oneself or unfollowing someone not followed', async () => {
    const fan = await newUser();
    const star = await newUser();
    await follow(fan, star);
    await events.eventOf('identity.user.updated', (p) => p.user.id === star.id);
    const before = events.seen.length;

    await follow(fan, star);
    await follow(fan, fan);
    await unfollow(star, fan);
    // An event of the changes above would be published within the relay's poll (100 ms).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(events.seen.slice(before).filter((e) => [fan.id, star.id].includes((e.payload.user as identity.User | undefined)?.id ?? 0))).toEqual([]);
    expect(await countsOf(fan)).toEqual({ followers: 0, following: 1 });
    expect(await countsOf(star)).toEqual({ followers: 1, following: 0 });
    expect(await followsNow(fan, fan)).toBe(false);
  });

  it('leaves the users\' updated_at alone: following is no change to a profile', async () => {
    const fan = await newUser();
    const star = await newUser();
    const before = await tb.db.user.findUniqueOrThrow({ where: { id: BigInt(star.id) }, select: { updated_at: true } });
    await follow(fan, star);
    const after = await tb.db.user.findUniqueOrThrow({ where: { id: BigInt(star.id) }, select: { updated_at: true } });
    expect(after.updated_at).toEqual(before.updated_at);
  });

  it('refuses following on someone else\'s behalf, and an account that does not exist', async () => {
    const fan = await newUser();
    const star = await newUser();
    const other = await newUser();
    expect(await failure(users.FollowUser({ user_id: fan.id, follow_id: star.id }, { caller: asCaller(other) }))).toMatchObject({ kind: 'forbidden' });
    expect(await failure(users.FollowUser({ user_id: fan.id, follow_id: 987_654_321 }, { caller: asCaller(fan) }))).toMatchObject({ kind: 'not_found', reason: 'user_not_found' });
    expect(await countsOf(fan)).toEqual({ followers: 0, following: 0 });
  });

  it('takes two users following each other at once, and many following one, counting each once', async () => {
    const ada = await newUser();
    const bob = await newUser();
    const crowd = await Promise.all(Array.from({ length: 8 }, () => newUser()));
    await Promise.all([follow(ada, bob), follow(bob, ada), ...crowd.map((fan) => follow(fan, ada)), ...crowd.map((fan) => follow(fan, ada))]);

    expect(await countsOf(ada)).toEqual({ followers: 9, following: 1 });
    expect(await countsOf(bob)).toEqual({ followers: 1, following: 1 });
    expect(await tb.db.follow.count({ where: { follow_id: BigInt(ada.id) } })).toBe(9);
  });
});

describe('lists of follows', () => {
  it('page in the order followed, with the total', async () => {
    const star = await newUser();
    const fans = [await newUser(), await newUser(), await newUser()];
    for (const fan of fans) await follow(fan, star);

    const first = await users.ListFollowers({ user_id: star.id, page: { page: 1, limit: 2 } }, { caller: ANONYMOUS });
    expect(first.users.map((u) => u.login)).toEqual([fans[0].login, fans[1].login]);
    expect(Number(first.total)).toBe(3);
    // Whole users, as GetUser answers them (the page is read with SQL of its own).
    expect(first.users[0]).toEqual({ ...(await users.GetUser({ id: fans[0].id }, { caller: SYSTEM })) });
    const past = await users.ListFollowers({ user_id: star.id, page: { page: 5, limit: 2 } }, { caller: ANONYMOUS });
    expect([past.users, Number(past.total)]).toEqual([[], 3]);
    const second = await users.ListFollowers({ user_id: star.id, page: { page: 2, limit: 2 } }, { caller: ANONYMOUS });
    expect(second.users.map((u) => u.login)).toEqual([fans[2].login]);
    const following = await users.ListFollowing({ user_id: fans[0].id, page: { page: 1, limit: 10 } }, { caller: ANONYMOUS });
    expect(following.users.map((u) => u.login)).toEqual([star.login]);
  });

  it('show limited accounts to signed-in callers only, and private ones to admins, whom they follow and their organizations\' members', async () => {
    const star = await newUser();
    const limited = await newUser({ visibility: 'VISIBILITY_LIMITED' });
    const secret = await newUser({ visibility: 'VISIBILITY_PRIVATE' });
    const colleague = await newUser();
    const stranger = await newUser();
    const restricted = await newUser({ restricted: true });
    const admin = await newUser({ is_admin: true });
    await follow(limited, star);
    await follow(secret, star);
    // The secret follower shares an organization with the colleague.
    const org = await orgs.CreateOrg({ name: name('org') }, { caller: asCaller(secret) });
    const [owners] = (await orgs.ListTeams({ org: org.account!.login, page: { page: 1, limit: 10 } }, { caller: asCaller(secret) })).teams;
    await orgs.AddTeamMember({ id: owners.id, login: colleague.login }, { caller: asCaller(secret) });

    expect(await followerLogins(star, ANONYMOUS)).toEqual({ logins: [], total: 0 });
    expect(await followerLogins(star, asCaller(restricted))).toEqual({ logins: [], total: 0 });
    expect(await followerLogins(star, asCaller(stranger, ['public-only', 'read:user']))).toEqual({ logins: [], total: 0 });
    expect(await followerLogins(star, asCaller(stranger))).toEqual({ logins: [limited.login], total: 1 });
    expect(await followerLogins(star, asCaller(star))).toEqual({ logins: [limited.login, secret.login], total: 2 });
    expect(await followerLogins(star, asCaller(colleague))).toEqual({ logins: [limited.login, secret.login], total: 2 });
    expect(await followerLogins(star, asCaller(admin))).toEqual({ logins: [limited.login, secret.login], total: 2 });
    expect(await followerLogins(star, asCaller(secret))).toEqual({ logins: [limited.login, secret.login], total: 2 });
  });

  it('list an organization among whom a user follows, never among an account\'s followers', async () => {
    const founder = await newUser();
    const fan = await newUser();
    const org = (await orgs.CreateOrg({ name: name('org') }, { caller: asCaller(founder) })).account!;
    await follow(fan, org);

    const following = await users.ListFollowing({ user_id: fan.id, page: { page: 1, limit: 10 } }, { caller: ANONYMOUS });
    expect(following.users.map((u) => [u.login, u.type])).toEqual([[org.login, 'organization']]);
    const followers = await users.ListFollowers({ user_id: org.id, page: { page: 1, limit: 10 } }, { caller: ANONYMOUS });
    expect(followers.users.map((u) => u.login)).toEqual([fan.login]);
  });
});

describe('deleting an account', () => {
  it('takes a deleted user\'s follows, moving and announcing the counts of those on the other side', async () => {
    const leaving = await newUser();
    const star = await newUser();
    const fan = await newUser();
    await follow(leaving, star);
    await follow(fan, leaving);

    await users.DeleteUser({ login: leaving.login }, { caller: { ...asCaller(star), isAdmin: true } });

    expect(await countsOf(star)).toEqual({ followers: 0, following: 0 });
    expect(await countsOf(fan)).toEqual({ followers: 0, following: 0 });
    expect(await tb.db.follow.count({ where: { OR: [{ user_id: BigInt(leaving.id) }, { follow_id: BigInt(leaving.id) }] } })).toBe(0);
    await events.eventOf('identity.user.updated', (p) => p.user.id === star.id && Number(p.user.num_followers) === 0 && updatesOf(star).length >= 2);
    await events.eventOf('identity.user.updated', (p) => p.user.id === fan.id && Number(p.user.num_following) === 0 && updatesOf(fan).length >= 2);
  });

  it('takes a deleted organization\'s followers\' follows, moving their counts', async () => {
    const founder = await newUser();
    const fan = await newUser();
    const org = (await orgs.CreateOrg({ name: name('org') }, { caller: asCaller(founder) })).account!;
    await follow(fan, org);
    expect(await countsOf(fan)).toEqual({ followers: 0, following: 1 });

    await orgs.DeleteOrg({ name: org.login }, { caller: asCaller(founder) });

    expect(await countsOf(fan)).toEqual({ followers: 0, following: 0 });
    expect(await tb.db.follow.count({ where: { follow_id: BigInt(org.id) } })).toBe(0);
  });
});
