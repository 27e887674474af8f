// A ref's lock (`<ref>.lock`, or `packed-refs.lock`) left behind by a writer killed while it
// held it (this process or git, with SIGKILL) would refuse every later move of the ref: git
// never removes a lock it did not take. One older than an hour is removed, as Gitaly's
// housekeeping does (ReferenceLockfileGracePeriod): a live writer holds a ref's lock for
// milliseconds. Every way of moving a ref calls it before the ref is locked: ref-in-place.ts
// when its exclusive create finds a lock, ref-updater.ts before it hands a move to git, and
// a push's pre-receive check (git-http/pre-receive.ts) before receive-pack locks its refs.
import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { isSafeRef, isZeroId } from './command.js';

/** A ref lock older than this was left by a writer that died holding it. */
export const STALE_REF_LOCK_MS = 60 * 60_000;

/**
 * Removes the lock file if it is older than STALE_REF_LOCK_MS; true when it did. It is first
 * renamed aside (atomically) and compared by inode with the stale file, so that a lock
 * another remover replaced meanwhile is never deleted as if it were stale: that one stays
 * aside, and its writer's final rename fails and refuses its move. The aside name ends in
 * `.lock`, which git never reads as a ref.
 */
export function removeStaleLock(lock: string): boolean {
  let stale: Stats;
  try {
    stale = statSync(lock);
  } catch {
    return false;
  }
  if (Date.now() - stale.mtimeMs <= STALE_REF_LOCK_MS) return false;
  const aside = `${lock.slice(0, -'.lock'.length)}.stale-${randomBytes(6).toString('hex')}.lock`;
  try {
    renameSync(lock, aside);
    const moved = statSync(aside);
    if (moved.ino !== stale.ino || moved.dev !== stale.dev) return false;
    rmSync(aside, { force: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * Removes the stale locks git takes to move these refs: each ref's own, and packed-refs'
 * when one is deleted (`newSha` all zeros), which rewrites packed-refs under its lock.
 * Names that are no safe ref under refs/ are left alone: git refuses them anyway.
 */
export function removeStaleRefLocks(gitDir: string, moves: ReadonlyArray<{ ref: string; newSha: string }>): void {
  for (const { ref } of moves) {
    if (isSafeRef(ref) && ref.startsWith('refs/')) removeStaleLock(join(gitDir, `${ref}.lock`));
  }
  if (moves.some(({ newSha }) => isZeroId(newSha))) removeStaleLock(join(gitDir, 'packed-refs.lock'));
}
