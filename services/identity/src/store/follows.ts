// Following in PostgreSQL (table `follow`, Gitea's models/user/follow.go): a row per
// follower and followed account, and the counts on both `user` rows (num_followers,
// num_following) moved in the same transaction. The counts leave updated_at alone:
// following is no change to the user's profile.
//
// Writes lock the user rows they move in id order first, so two users following each
// other at once, or a follow racing a deletion, wait for each other instead of deadlocking.
import type { FollowViewer } from '../domain/store.js';
import type { Page, Paged, User } from '../domain/user.js';
import type { IdentityDb, IdentityTx } from './db.js';
import { Prisma, type User as UserRow } from './generated/client.js';
import { toUser, userTypeNumber, visibilityNumber } from './rows.js';

type Client = IdentityDb | IdentityTx;

/** Locks the rows of these users in id order; answers the ids that exist. */
async function lockUsers(tx: IdentityTx, ids: readonly bigint[]): Promise<bigint[]> {
  if (ids.length === 0) return [];
  const rows = await tx.$queryRaw<Array<{ id: bigint }>>`SELECT id FROM "user" WHERE id IN (${Prisma.join([...ids])}) ORDER BY id FOR UPDATE`;
  return rows.map((r) => r.id);
}

async function usersNow(tx: IdentityTx, ids: readonly bigint[]): Promise<User[]> {
  const rows = await tx.user.findMany({ where: { id: { in: [...ids] } }, orderBy: { id: 'asc' } });
  return rows.map(toUser);
}

export async function addFollow(tx: IdentityTx, userId: number, followId: number): Promise<User[] | undefined> {
  const [user, follow] = [BigInt(userId), BigInt(followId)];
  if ((await lockUsers(tx, [user, follow])).length !== 2) return undefined;
  const inserted = await tx.$queryRaw<Array<{ id: bigint }>>`
    INSERT INTO follow (user_id, follow_id) VALUES (${user}, ${follow}) ON CONFLICT (user_id, follow_id) DO NOTHING RETURNING id`;
  if (inserted.length === 0) return [];
  await tx.$executeRaw`UPDATE "user" SET num_following = num_following + 1 WHERE id = ${user}`;
  await tx.$executeRaw`UPDATE "user" SET num_followers = num_followers + 1 WHERE id = ${follow}`;
  return usersNow(tx, [user, follow]);
}

export async function removeFollow(tx: IdentityTx, userId: number, followId: number): Promise<User[]> {
  const [user, follow] = [BigInt(userId), BigInt(followId)];
  await lockUsers(tx, [user, follow]);
  const { count } = await tx.follow.deleteMany({ where: { user_id: user, follow_id: follow } });
  if (count === 0) return [];
  await tx.$executeRaw`UPDATE "user" SET num_following = greatest(num_following - 1, 0) WHERE id = ${user}`;
  await tx.$executeRaw`UPDATE "user" SET num_followers = greatest(num_followers - 1, 0) WHERE id = ${follow}`;
  return usersNow(tx, [user, follow]);
}

/** Gitea's deleteUser does the same: those the user followed lose a follower, their followers a following. */
export async function forgetFollows(tx: IdentityTx, userId: number): Promise<User[]> {
  const id = BigInt(userId);
  const rows = await tx.$queryRaw<Array<{ user_id: bigint; follow_id: bigint }>>`
    DELETE FROM follow WHERE user_id = ${id} OR follow_id = ${id} RETURNING user_id, follow_id`;
  const followed = rows.filter((r) => r.user_id === id).map((r) => r.follow_id);
  const followers = rows.filter((r) => r.follow_id === id).map((r) => r.user_id);
  const others = [...new Set([...followed, ...followers])].sort((a, b) => (a < b ? -1 : 1));
  if (others.length === 0) return [];
  await lockUsers(tx, others);
  if (followed.length) await tx.$executeRaw`UPDATE "user" SET num_followers = greatest(num_followers - 1, 0) WHERE id IN (${Prisma.join(followed)})`;
  if (followers.length) await tx.$executeRaw`UPDATE "user" SET num_following = greatest(num_following - 1, 0) WHERE id IN (${Prisma.join(followers)})`;
  return usersNow(tx, others);
}

export async function isFollowing(db: Client, userId: number, followId: number): Promise<boolean> {
  return (await db.follow.count({ where: { user_id: BigInt(userId), follow_id: BigInt(followId) } })) > 0;
}

/** Gitea's isUserVisibleToViewerCond over the listed account `u`. */
function visibleTo(viewer: FollowViewer): Prisma.Sql {
  if (viewer.scope === 'all') return Prisma.sql`TRUE`;
  if (viewer.scope === 'public') return Prisma.sql`u.visibility = ${visibilityNumber('public')}`;
  const me = BigInt(viewer.viewer_id);
  return Prisma.sql`(u.visibility <> ${visibilityNumber('private')} OR u.id = ${me}
    OR u.id IN (SELECT f.user_id FROM follow f WHERE f.follow_id = ${me})
    OR u.id IN (SELECT o.uid FROM org_user o JOIN org_user mine ON mine.org_id = o.org_id WHERE mine.uid = ${me}))`;
}

/**
 * One page of the accounts on the other side of `userId`'s follow rows, with the total, in
 * the order they were followed: one statement (the total rides on each row as a window
 * count; only a page past the end asks for it again).
 */
async function followPage(db: Client, side: 'followers' | 'following', userId: number, viewer: FollowViewer, page: Page): Promise<Paged<User>> {
  const id = BigInt(userId);
  // Followers are users only; whom one follows may be a user or an organization (as Gitea lists them).
  const from = side === 'followers'
    ? Prisma.sql`follow fl JOIN "user" u ON u.id = fl.user_id WHERE fl.follow_id = ${id} AND u.type = ${userTypeNumber('user')}`
    : Prisma.sql`follow fl JOIN "user" u ON u.id = fl.follow_id WHERE fl.user_id = ${id}`;
  const where = visibleTo(viewer);
  const rows = await db.$queryRaw<Array<UserRow & { total: bigint }>>`
    SELECT u.*, count(*) OVER () AS total FROM ${from} AND ${where}
    ORDER BY fl.id LIMIT ${page.limit} OFFSET ${(page.page - 1) * page.limit}`;
  if (rows.length > 0) return { items: rows.map(({ total: _total, ...row }) => toUser(row)), total: Number(rows[0].total) };
  if (page.page === 1) return { items: [], total: 0 };
  const [{ total }] = await db.$queryRaw<Array<{ total: bigint }>>`SELECT count(*) AS total FROM ${from} AND ${where}`;
  return { items: [], total: Number(total) };
}

export const followers = (db: Client, userId: number, viewer: FollowViewer, page: Page) => followPage(db, 'followers', userId, viewer, page);
export const following = (db: Client, userId: number, viewer: FollowViewer, page: Page) => followPage(db, 'following', userId, viewer, page);
