// A ref's lock (`<ref>.lock`, or `packed-refs.lock`) left behind by a writer killed while it
// held it (this process or git, with SIGKILL) would refuse every later move of the ref: git
// never removes a lock it did not take. One older than an hour is removed, as Gitaly's
// housekeeping does (ReferenceLockfileGracePeriod): a live writer holds a ref's lock for
// milliseconds. Both ways of moving a ref call it before they lock: ref-in-place.ts when its
// exclusive create finds a lock, ref-updater.ts before it hands a move to git.
import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, statSync, type Stats } from 'node:fs';

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
