// A branch moved from the commit it holds to the next one without a git process: the move a
// contents write, a branch update or a merge makes, and the hottest step of a write turn.
// Under load a round trip to `git update-ref --stdin` (ref-updater.ts) waited 16–21 ms for
// the git process to be scheduled; these few file calls take microseconds.
//
// It is done exactly as git's files backend moves a loose ref, so git processes (a push's
// receive-pack, another replica's update-ref) and this code can move the same refs at once:
// 1. create `<ref>.lock` exclusively (O_CREAT | O_EXCL): the lock every writer of the ref takes;
// 2. holding it, read what the ref holds: its loose file, else its line in packed-refs;
// 3. refuse unless that is the expected old id (RefUpdateConflict: the compare-and-swap),
//    otherwise write the new id into the lock file and rename it over the ref, so a reader
//    sees the old id or the new one, never part of either. Like git by default (core.fsync),
//    the ref file is not synced to disk.
// Anything out of the ordinary is left to git ('unsupported'): a lock another writer holds
// (git waits for it, core.filesRefLockTimeout), a symbolic ref, a repository that keeps
// reflogs (a `logs` directory: git appends to them), a ref that does not exist, and creating
// or deleting a ref (conflicts with other refs' names, rewriting packed-refs).
//
// A lock left behind long ago by a writer that died holding it is removed first
// (stale-ref-lock.ts).
//
// Written here because no library does it safely: isomorphic-git's writeRef writes the file
// in place without git's lock, so a concurrent push could lose its move.
import { closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { RefUpdateConflict } from './branches.js';
import { isObjectId } from './command.js';
import { removeStaleLock } from './stale-ref-lock.js';

export type InPlaceMove = 'moved' | 'unsupported';

/**
 * Moves `ref` (validated: isSafeRef, under refs/) from `oldSha` to `newSha`, both existing
 * object ids, or answers 'unsupported' without changing anything, for git to do it. Throws
 * RefUpdateConflict when the ref holds another id than `oldSha`.
 */
export function moveRefInPlace(gitDir: string, ref: string, newSha: string, oldSha: string): InPlaceMove {
  if (existsSync(join(gitDir, 'logs'))) return 'unsupported';
  const path = join(gitDir, ref);
  const lock = `${path}.lock`;
  const fd = takeLock(lock);
  if (fd === undefined) return 'unsupported';
  return moveHoldingLock(gitDir, ref, path, lock, fd, newSha, oldSha);
}

/** The lock's file descriptor, or undefined when another writer holds it or the ref cannot exist. */
function takeLock(lock: string): number | undefined {
  try {
    return openSync(lock, 'wx');
  } catch (err) {
    // ENOENT, ENOTDIR: no such ref. EEXIST: another writer holds it, never ours to remove
    // unless it died holding it long ago.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || !removeStaleLock(lock)) return undefined;
  }
  try {
    return openSync(lock, 'wx');
  } catch {
    return undefined;
  }
}

function moveHoldingLock(gitDir: string, ref: string, path: string, lock: string, lockFd: number, newSha: string, oldSha: string): InPlaceMove {
  let fd: number | undefined = lockFd;
  let locked = true;
  try {
    const held = heldBy(gitDir, ref, path);
    if (held === undefined) return 'unsupported';
    if (held !== oldSha) throw new RefUpdateConflict(`cannot lock ref '${ref}': is at ${held} but expected ${oldSha}`);
    writeSync(fd, `${newSha}\n`);
    closeSync(fd);
    fd = undefined;
    renameSync(lock, path);
    locked = false;
    return 'moved';
  } finally {
    if (fd !== undefined) closeSync(fd);
    if (locked) rmSync(lock, { force: true });
  }
}

/** The id the ref holds (read while holding its lock), or undefined for anything but a plain existing ref. */
function heldBy(gitDir: string, ref: string, path: string): string | undefined {
  let loose: string;
  try {
    loose = readFileSync(path, 'latin1');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? packedId(gitDir, ref) : undefined;
  }
  // A symbolic ref reads `ref: <target>`; anything else that is not an id is git's to judge.
  const id = loose.trimEnd();
  return isObjectId(id) ? id : undefined;
}

/** The ref's id in packed-refs (`<id> <ref>` lines; `^<id>` lines peel the tag above them). */
function packedId(gitDir: string, ref: string): string | undefined {
  let packed: string;
  try {
    packed = readFileSync(join(gitDir, 'packed-refs'), 'latin1');
  } catch {
    return undefined;
  }
  for (const line of packed.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0 && line.slice(space + 1) === ref && isObjectId(line.slice(0, space))) return line.slice(0, space);
  }
  return undefined;
}
