// Git objects written by the service itself: a blob, tree or commit is `<type> <size>\0<bytes>`,
// named by its sha1 (or sha256) and stored zlib-deflated at objects/<2 hex>/<rest> (git's
// loose object format, what `hash-object -w`, `write-tree` and `commit-tree` write). Doing it
// here instead of spawning those commands makes a contents write cost a fraction of the CPU
// (a spawn is ~11 ms of CPU; hashing and deflating a small file is microseconds).
//
// The writer only ever adds objects, never changes or removes one: an object's name is the
// hash of its bytes, so writing one that exists is a no-op, and two writers writing the same
// object write the same bytes. Like git, it writes a temporary file beside the target and
// moves it into place, so a reader never sees half an object; it renames where git links
// first: one call instead of a link and an unlink, and a rename over an object another
// writer stored meanwhile puts the same bytes in its place.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deflate, deflateSync } from 'node:zlib';

export type ObjectFormat = 'sha1' | 'sha256';
export type ObjectType = 'blob' | 'tree' | 'commit' | 'tag';

const deflateAsync = promisify(deflate);
// Larger objects are deflated off the event loop (zlib's thread pool); small ones inline,
// where the round trip to the pool would cost more than the work.
const INLINE_DEFLATE = 64 << 10;
// git's core.looseCompression default (Z_BEST_SPEED).
const LOOSE_COMPRESSION = 1;

/** The object id git gives `content` stored as `type`. */
export function objectId(type: ObjectType, content: Buffer, format: ObjectFormat = 'sha1'): string {
  return createHash(format).update(`${type} ${content.length}\0`).update(content).digest('hex');
}

/** What one writer wrote: the id, and the bytes it added on disk (0 when the object was there). */
export interface WrittenObject {
  oid: string;
  bytes: number;
}

/** Told of each object once it is on disk (written now or found there). */
export type WrittenObjectListener = (type: ObjectType, oid: string, content: Buffer) => void;

/** Writes loose objects into one repository's object directory. */
export class LooseObjectWriter {
  /** Bytes added on disk by this writer (for the repository's size). */
  written = 0;

  constructor(private readonly gitDir: string, readonly format: ObjectFormat = 'sha1', private readonly onStored?: WrittenObjectListener) {}

  async write(type: ObjectType, content: Buffer): Promise<string> {
    const oid = await this.store(type, content);
    this.onStored?.(type, oid, content);
    return oid;
  }

  private async store(type: ObjectType, content: Buffer): Promise<string> {
    const header = Buffer.from(`${type} ${content.length}\0`, 'latin1');
    const oid = createHash(this.format).update(header).update(content).digest('hex');
    const dir = join(this.gitDir, 'objects', oid.slice(0, 2));
    const target = join(dir, oid.slice(2));
    if (existsSync(target)) return oid;
    const raw = Buffer.concat([header, content]);
    const small = raw.length <= INLINE_DEFLATE;
    const packed = small ? deflateSync(raw, { level: LOOSE_COMPRESSION }) : await deflateAsync(raw, { level: LOOSE_COMPRESSION });
    // git's own temporary name (tmp_obj_*), which `git gc` knows to clean after a crash.
    const temp = join(dir, `tmp_obj_${randomBytes(6).toString('hex')}`);
    // Small objects (nearly all a contents write makes) are written with synchronous calls:
    // a few microseconds each, less CPU than a round trip through libuv's thread pool.
    if (small) writeSmall(dir, temp, packed);
    else await writeLarge(dir, temp, packed);
    try {
      renameSync(temp, target);
    } catch (err) {
      rmSync(temp, { force: true });
      throw err;
    }
    // Counted once more if another writer stored it meanwhile (writers of one repository
    // take turns, so only a push's git could): the size is measured again at the next push.
    this.written += packed.length;
    return oid;
  }
}

/** Writes a new read-only file in `dir`, making `dir` when it is missing (a fan-out directory). */
function writeSmall(dir: string, path: string, bytes: Buffer): void {
  try {
    writeFileSync(path, bytes, { mode: 0o444, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(dir, { recursive: true });
    writeFileSync(path, bytes, { mode: 0o444, flag: 'wx' });
  }
}

async function writeLarge(dir: string, path: string, bytes: Buffer): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(path, bytes, { mode: 0o444, flag: 'wx' });
}
