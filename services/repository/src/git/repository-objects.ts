// A repository's objects read through the cat-file cache: blobs, commits and trees by object
// id, and tree walks (what `ls-tree` and `cat-file <rev>` answered with a process each). Only
// object ids and `<id>:<path>` lines reach git (catfile-cache.ts); paths are walked here,
// segment by segment, over parsed tree objects.
import type { TreeEntry } from '../domain/git-objects.js';
import type { RawCommit } from '../domain/commits.js';
import { isObjectId } from './command.js';
import type { CatfileCache, CatfileObject } from './catfile-cache.js';
import type { ImmutableCache } from './immutable-cache.js';

class MissingObject extends Error {}
import { parseCommit } from './commits.js';

/** One entry of a tree object as git stores it. */
export interface RawTreeEntry {
  /** Six octal digits, as `ls-tree` prints them (`040000` for a tree). */
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
  name: string;
}

/** Parses a tree object: `<octal mode> SP <name> NUL <raw id>` records. */
export function parseTree(content: Buffer, idBytes: number): RawTreeEntry[] {
  const entries: RawTreeEntry[] = [];
  let at = 0;
  while (at < content.length) {
    const space = content.indexOf(0x20, at);
    const nul = content.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 1 + idBytes > content.length) break;
    const rawMode = content.subarray(at, space).toString('latin1');
    const name = content.subarray(space + 1, nul).toString('utf8');
    const sha = content.subarray(nul + 1, nul + 1 + idBytes).toString('hex');
    at = nul + 1 + idBytes;
    const mode = rawMode.padStart(6, '0');
    const type = mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob';
    entries.push({ mode, type, sha, name });
  }
  return entries;
}

/** The id a tag object points at (`object <id>` header). */
function tagTarget(content: Buffer): string | undefined {
  const match = /^object ([0-9a-f]+)\n/.exec(content.subarray(0, 100).toString('latin1'));
  return match && isObjectId(match[1]) ? match[1] : undefined;
}

const MAX_PEEL = 10;

// Blobs up to this size are remembered whole (within the byte bound of the cache).
const REMEMBERED_BLOB = 256 << 10;

export class RepositoryObjects {
  /** `memo` remembers what object ids answer (immutable-cache.ts): trees, commits, small blobs, sizes. */
  constructor(private readonly cache: CatfileCache, readonly gitDir: string, private readonly memo?: ImmutableCache) {}

  /** The object with its bytes: trees, commits and tags and small blobs are remembered. */
  async object(oid: string): Promise<CatfileObject | undefined> {
    if (!this.memo || !isObjectId(oid)) return this.cache.object(this.gitDir, oid);
    const known = this.memo.has(this.gitDir, `object:${oid}`);
    const info = known ? undefined : await this.info(oid);
    if (!known && (!info || (info.type === 'blob' && info.size > REMEMBERED_BLOB))) return info && this.cache.object(this.gitDir, oid);
    return this.memo.get(this.gitDir, `object:${oid}`, () => this.cache.object(this.gitDir, oid), (o) => (o?.size ?? 0) + 200);
  }

  /**
   * An object this service stored (object-writer.ts) and a ref now reaches, remembered as a
   * read of it would be: its id names these bytes, so what a read would fetch from git is
   * known already.
   */
  remember(type: string, oid: string, content: Buffer): void {
    if (!this.memo || !isObjectId(oid) || (type === 'blob' && content.length > REMEMBERED_BLOB)) return;
    const found: CatfileObject = { oid, type, size: content.length, content };
    this.memo.get(this.gitDir, `info:${oid}`, () => Promise.resolve({ oid, type, size: content.length }));
    this.memo.get(this.gitDir, `object:${oid}`, () => Promise.resolve(found), (o) => o.size + 200);
  }

  /** Type and size; remembered (a missing object is asked again next time). */
  info(oid: string): Promise<CatfileObject | undefined> {
    if (!this.memo || !isObjectId(oid)) return this.cache.info(this.gitDir, oid);
    return this.memo.get(this.gitDir, `info:${oid}`, async () => {
      const found = await this.cache.info(this.gitDir, oid);
      if (!found) throw new MissingObject();
      return found;
    }).catch((err) => {
      if (err instanceof MissingObject) return undefined;
      throw err;
    });
  }

  async blob(oid: string): Promise<Buffer | undefined> {
    const found = await this.object(oid);
    return found?.type === 'blob' ? found.content : undefined;
  }

  async commit(oid: string): Promise<RawCommit | undefined> {
    const parse = async () => {
      const found = await this.object(oid);
      return found?.type === 'commit' && found.content ? parseCommit(found.oid, found.content) : undefined;
    };
    return this.memo ? this.memo.get(this.gitDir, `commit:${oid}`, parse) : parse();
  }

  /** Commits with these ids, in the order given; ids that are not commits are left out. */
  async commits(ids: readonly string[]): Promise<RawCommit[]> {
    const read = await Promise.all(ids.map((id) => this.commit(id)));
    return read.filter((c): c is RawCommit => c !== undefined);
  }

  async tree(oid: string): Promise<RawTreeEntry[] | undefined> {
    const parse = async () => {
      const found = await this.object(oid);
      if (found?.type !== 'tree' || !found.content) return undefined;
      return parseTree(found.content, oid.length / 2);
    };
    return this.memo ? this.memo.get(this.gitDir, `tree:${oid}`, parse) : parse();
  }

  /** `<id>^{type}`: follows tags (and a commit to its tree) until an object of `type`. */
  async peel(oid: string, type: 'commit' | 'tree'): Promise<CatfileObject | undefined> {
    let current = oid;
    for (let i = 0; i < MAX_PEEL; i++) {
      const found = type === 'commit' && i === 0 ? await this.info(current) : await this.object(current);
      if (!found) return undefined;
      if (found.type === type) return type === 'commit' ? { oid: found.oid, type: found.type, size: found.size } : found;
      if (found.type === 'tag') {
        const tag = found.content ?? (await this.object(current))?.content;
        const next = tag && tagTarget(tag);
        if (!next) return undefined;
        current = next;
        continue;
      }
      if (found.type === 'commit' && type === 'tree') {
        // The parsed commit is kept (commit()), so a commit's tree costs no parse per read.
        const commit = await this.commit(found.oid);
        if (!commit) return undefined;
        current = commit.treeSha;
        continue;
      }
      return undefined;
    }
    return undefined;
  }

  /** Entries of a tree (or of a commit's tree) with blob sizes, as `ls-tree -l`; paths get `prefix/`. */
  async list(treeish: string, prefix: string): Promise<TreeEntry[]> {
    const tree = await this.peel(treeish, 'tree');
    if (!tree?.content) return [];
    return this.withSizes(parseTree(tree.content, tree.oid.length / 2), prefix);
  }

  /** Every entry under a tree, subtrees first and then their contents (as `ls-tree -r -t`). */
  async listRecursive(treeSha: string): Promise<TreeEntry[]> {
    const out: TreeEntry[] = [];
    const walk = async (sha: string, prefix: string) => {
      for (const entry of await this.list(sha, prefix)) {
        out.push(entry);
        if (entry.type === 'tree') await walk(entry.sha, entry.path);
      }
    };
    await walk(treeSha, '');
    return out;
  }

  /**
   * The entries at `paths` in `treeish` (a commit or tree id), with every tree on the way,
   * keyed by full path (as `ls-tree -t -l --full-tree <treeish> -- <paths>`). Missing paths
   * are simply absent.
   */
  async entriesAt(treeish: string, paths: readonly string[]): Promise<Map<string, TreeEntry>> {
    const found = new Map<string, TreeEntry>();
    if (paths.length === 0) return found;
    const root = await this.peel(treeish, 'tree');
    if (!root?.content) return found;
    const idBytes = root.oid.length / 2;
    // Each tree on the way is read once and looked up by name, so many paths in one large
    // directory (a push's changed files) cost one pass over it, not one per path.
    const byName = (entries: RawTreeEntry[] | undefined) => {
      if (!entries) return undefined;
      const named = new Map<string, RawTreeEntry>();
      for (const e of entries) if (!named.has(e.name)) named.set(e.name, e);
      return named;
    };
    const trees = new Map<string, Promise<Map<string, RawTreeEntry> | undefined>>([['', Promise.resolve(byName(parseTree(root.content, idBytes)))]]);
    const treeAt = (dir: string, sha: string) => {
      let t = trees.get(dir);
      if (!t) trees.set(dir, (t = this.tree(sha).then(byName)));
      return t;
    };
    await Promise.all(paths.map(async (path) => {
      const parts = path.split('/').filter(Boolean);
      let dir = '';
      let entries = await trees.get('');
      for (let i = 0; i < parts.length && entries; i++) {
        const raw = entries.get(parts[i]);
        if (!raw) return;
        const full = dir ? `${dir}/${raw.name}` : raw.name;
        if (!found.has(full)) found.set(full, await this.sized(raw, full));
        if (i === parts.length - 1 || raw.type !== 'tree') return;
        dir = full;
        entries = await treeAt(full, raw.sha);
      }
    }));
    return found;
  }

  private async sized(raw: RawTreeEntry, path: string): Promise<TreeEntry> {
    const size = raw.type === 'blob' ? (await this.info(raw.sha))?.size ?? 0 : 0;
    return { mode: raw.mode, type: raw.type, sha: raw.sha, size, path };
  }

  private withSizes(entries: RawTreeEntry[], prefix: string): Promise<TreeEntry[]> {
    return Promise.all(entries.map((e) => this.sized(e, prefix ? `${prefix}/${e.name}` : e.name)));
  }
}
