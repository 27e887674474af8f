// Following (Gitea's models/user/follow.go and routers/api/v1/user/follower.go): a user
// follows users and organizations; the counts on both sides (num_followers, num_following)
// move in the follow's transaction, and both users are announced as identity.user.updated
// so the read models of other services show the new counts. As in Gitea, following oneself,
// following again and unfollowing someone not followed change nothing and are no error.
// Which account a caller may name is the gateway's (a user the caller cannot see is 404
// there); Anvil has no user blocking, which in Gitea refuses a follow with 403.
import { DomainError, forbidden, type Caller } from '@anvil/kit';
import { pageOf, userNotFound, type Identity } from './context.js';
import type { FollowViewer, IdentityWriter } from './store.js';
import type { Paged, User } from './user.js';

/** `user_id` follows `follow_id`. */
export interface Follow {
  user_id: number;
  follow_id: number;
}

/** Only the caller follows or unfollows, on their own behalf. */
function requireFollower(caller: Caller, follow: Follow): void {
  if (caller.userId <= 0) throw new DomainError('unauthenticated', 'sign in to follow users');
  if (follow.user_id !== caller.userId) throw forbidden('a user follows others only on their own behalf', 'not_self');
}

async function announce(tx: IdentityWriter, changed: readonly User[]): Promise<void> {
  for (const user of changed) await tx.publish({ kind: 'user.updated', user });
}

export async function followUser(identity: Identity, caller: Caller, follow: Follow): Promise<void> {
  requireFollower(caller, follow);
  if (follow.follow_id === follow.user_id) return;
  await identity.store.transaction(async (tx) => {
    const changed = await tx.addFollow(follow.user_id, follow.follow_id);
    if (!changed) throw userNotFound({ id: follow.follow_id });
    await announce(tx, changed);
  });
}

export async function unfollowUser(identity: Identity, caller: Caller, follow: Follow): Promise<void> {
  requireFollower(caller, follow);
  if (follow.follow_id === follow.user_id) return;
  await identity.store.transaction(async (tx) => announce(tx, await tx.removeFollow(follow.user_id, follow.follow_id)));
}

export async function isFollowing(identity: Identity, follow: Follow): Promise<boolean> {
  if (follow.user_id <= 0 || follow.follow_id <= 0) return false;
  return identity.store.isFollowing(follow.user_id, follow.follow_id);
}

/**
 * Whom the caller sees in a list of follows (Gitea's isUserVisibleToViewerCond): anonymous
 * callers, restricted users and public-only tokens see public accounts only.
 */
export function followViewerOf(caller: Caller): FollowViewer {
  if (caller.scopes.includes('public-only')) return { scope: 'public' };
  if (caller.isAdmin) return { scope: 'all' };
  if (caller.userId <= 0 || caller.restricted) return { scope: 'public' };
  return { scope: 'signed', viewer_id: caller.userId };
}

type PageRequest = { page?: number; limit?: number } | null | undefined;

export async function listFollowers(identity: Identity, caller: Caller, userId: number, page: PageRequest): Promise<Paged<User>> {
  return identity.store.followers(userId, followViewerOf(caller), pageOf(page, identity.settings));
}

export async function listFollowing(identity: Identity, caller: Caller, userId: number, page: PageRequest): Promise<Paged<User>> {
  return identity.store.following(userId, followViewerOf(caller), pageOf(page, identity.settings));
}

/** An account's deletion: every follow from and of it goes, and those whose counts moved are announced. */
export async function forgetFollowsOf(tx: IdentityWriter, userId: number): Promise<void> {
  await announce(tx, await tx.forgetFollows(userId));
}
