// Writing one commit from file changes without a work tree or a git process (DESIGN.md §3):
// the new blobs, the trees along the changed paths and the commit are written as loose
// objects by the service (object-writer.ts), with the exact bytes `hash-object -w`,
// `update-index` + `write-tree` and `commit-tree` would write; the parent's trees are read
// through the long-lived cat-file processes. The branch moves separately with a
// compare-and-swap ref update (ref-updater.ts), so two writers can never lose a commit: the
// one whose expected old value is stale fails.
//
// An author or committer whose name or e-mail git would clean up (leading or trailing
// punctuation or whitespace, `<`, `>` or a newline inside, an empty name) is handed to
// `git commit-tree` itself, so git's rules for those stay git's.
import { writtenAsGiven, type CommitParts, type NewCommit, type Signature, type WrittenCommit } from '../domain/commit-writing.js';
import { git, runGit } from './command.js';
import { LooseObjectWriter, type ObjectFormat, type WrittenObjectListener } from './object-writer.js';

export type { CommitParts, IndexChange, NewCommit, Signature, WrittenCommit } from '../domain/commit-writing.js';

/** Reads an object by id (the cat-file cache); undefined when the repository has none. */
export type ObjectReader = (oid: string) => Promise<{ type: string; content?: Buffer } | undefined>;

const dateOf = (time: number) => `@${time} +0000`;

/** Writes one commit object of `parts.tree` with `git commit-tree`; moves no ref. */
async function commitTreeByGit(gitDir: string, parts: CommitParts): Promise<string> {
  const cmd = git('commit-tree', { gitDir })
    .env('GIT_AUTHOR_NAME', parts.author.name).env('GIT_AUTHOR_EMAIL', parts.author.email).env('GIT_AUTHOR_DATE', dateOf(parts.author.time))
    .env('GIT_COMMITTER_NAME', parts.committer.name).env('GIT_COMMITTER_EMAIL', parts.committer.email)
    .env('GIT_COMMITTER_DATE', dateOf(parts.committer.time))
    .flag('-F', '-');
  for (const parent of parts.parents) cmd.flag('-p').oid(parent);
  cmd.oid(parts.tree);
  return (await runGit(cmd.build(), { stdin: parts.message })).trim();
}

/** The commit object's bytes, as `commit-tree` writes them (no encoding header, no signature). */
function commitBytes(parts: CommitParts): Buffer {
  const ident = (s: Signature) => `${s.name} <${s.email}> ${s.time} +0000`;
  const lines = [`tree ${parts.tree}`, ...parts.parents.map((p) => `parent ${p}`), `author ${ident(parts.author)}`, `committer ${ident(parts.committer)}`];
  return Buffer.from(`${lines.join('\n')}\n\n${parts.message}`, 'utf8');
}

/** Writes one commit object of `parts.tree`; moves no ref. */
export async function commitTree(gitDir: string, parts: CommitParts, writer = new LooseObjectWriter(gitDir, formatOf(parts.tree))): Promise<string> {
  if (!writtenAsGiven(parts)) return commitTreeByGit(gitDir, parts);
  return writer.write('commit', commitBytes(parts));
}

const formatOf = (oid: string): ObjectFormat => (oid.length === 64 ? 'sha256' : 'sha1');

// Tree entries are kept with their names as latin1 strings: one char per byte, so a name that
// is not UTF-8 survives a rewrite unchanged and string order is git's byte order.
interface Entry {
  mode: string;
  oid: string;
}

/** One directory being rewritten: its entries, and the subdirectories loaded beneath it. */
interface Dir {
  entries: Map<string, Entry>;
  children: Map<string, Dir>;
}

const TREE_MODE = '40000';
/** A tree entry's mode names a tree (old trees may spell it `040000`). */
const isTree = (mode: string) => (parseInt(mode, 8) & 0o170000) === 0o040000;

function parseTreeEntries(content: Buffer, idBytes: number): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  let at = 0;
  while (at < content.length) {
    const space = content.indexOf(0x20, at);
    const nul = content.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 1 + idBytes > content.length) break;
    entries.set(content.toString('latin1', space + 1, nul), {
      mode: content.toString('latin1', at, space),
      oid: content.toString('hex', nul + 1, nul + 1 + idBytes),
    });
    at = nul + 1 + idBytes;
  }
  return entries;
}

/** The mode git's index gives an entry (cache.h create_ce_mode): what write-tree writes. */
function indexMode(mode: string): string {
  const value = parseInt(mode, 8);
  const kind = value & 0o170000;
  if (kind === 0o040000) return TREE_MODE;
  if (kind === 0o120000) return '120000';
  if (kind === 0o160000) return '160000';
  return value & 0o100 ? '100755' : '100644';
}

/** A tree object's bytes: entries in git's order (a tree sorts as if its name ended in `/`). */
function treeBytes(entries: Map<string, Entry>): Buffer {
  const key = (name: string, e: Entry) => (isTree(e.mode) ? `${name}/` : name);
  const sorted = [...entries].sort(([a, ea], [b, eb]) => {
    const ka = key(a, ea);
    const kb = key(b, eb);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
  return Buffer.concat(sorted.flatMap(([name, e]) => [Buffer.from(`${e.mode} ${name}\0`, 'latin1'), Buffer.from(e.oid, 'hex')]));
}

/**
 * Writes the blobs, trees and commit; moves no ref. `read` answers the parent's commit and
 * trees (required when there is a parent); `onStored` is told of every object written.
 */
export async function writeCommit(gitDir: string, input: NewCommit, read?: ObjectReader, onStored?: WrittenObjectListener): Promise<WrittenCommit> {
  const writer = new LooseObjectWriter(gitDir, input.objectFormat, onStored);
  const idBytes = input.objectFormat === 'sha256' ? 32 : 20;
  const loadTree = async (oid: string): Promise<Dir> => {
    const found = await read!(oid);
    if (found?.type !== 'tree' || !found.content) throw new Error(`tree ${oid} is missing`);
    return { entries: parseTreeEntries(found.content, idBytes), children: new Map() };
  };
  let root: Dir = { entries: new Map(), children: new Map() };
  if (input.parent) {
    if (!read) throw new Error('writeCommit needs an object reader for a parent');
    const parent = await read(input.parent);
    const tree = parent?.type === 'commit' && parent.content ? /^tree ([0-9a-f]+)\n/.exec(parent.content.toString('latin1', 0, 80))?.[1] : undefined;
    if (!tree) throw new Error(`commit ${input.parent} is missing`);
    root = await loadTree(tree);
  }

  // The directory at `parts` (loading or making it on the way); undefined if absent and not `make`.
  const dirAt = async (parts: string[], make: boolean): Promise<Dir | undefined> => {
    let dir = root;
    for (const part of parts) {
      let child = dir.children.get(part);
      if (!child) {
        const entry = dir.entries.get(part);
        if (entry && isTree(entry.mode)) child = await loadTree(entry.oid);
        else if (make) child = { entries: new Map(), children: new Map() };
        else return undefined;
        dir.children.set(part, child);
        // Marked as a tree now; its id is written when the directory is.
        dir.entries.set(part, { mode: TREE_MODE, oid: '' });
      }
      dir = child;
    }
    return dir;
  };

  const blobs = new Map<string, { sha: string; size: number }>();
  await Promise.all(input.changes.map(async (change) => {
    if ('content' in change) blobs.set(change.path, { sha: await writer.write('blob', change.content), size: change.content.length });
  }));
  // Removals first: a rename's old path goes before a new path is added beside it (as the
  // index took them). Sequential: changes may share directories.
  const ordered = [...input.changes.filter((c) => 'remove' in c), ...input.changes.filter((c) => !('remove' in c))];
  for (const change of ordered) {
    const parts = change.path.split('/').map((p) => Buffer.from(p, 'utf8').toString('latin1'));
    const name = parts.pop()!;
    if ('remove' in change) {
      const dir = await dirAt(parts, false);
      const entry = dir?.entries.get(name);
      if (entry && !isTree(entry.mode)) dir!.entries.delete(name);
      continue;
    }
    const dir = (await dirAt(parts, true))!;
    dir.children.delete(name);
    dir.entries.set(name, { mode: indexMode(change.mode), oid: 'blobSha' in change ? change.blobSha : blobs.get(change.path)!.sha });
  }

  // Rewritten directories bottom-up; one left empty disappears, as it would from an index.
  const writeDir = async (dir: Dir): Promise<string | undefined> => {
    for (const [name, child] of dir.children) {
      const oid = await writeDir(child);
      if (oid) dir.entries.set(name, { mode: TREE_MODE, oid });
      else dir.entries.delete(name);
    }
    if (dir.entries.size === 0 && dir !== root) return undefined;
    for (const [name, entry] of dir.entries) dir.entries.set(name, { ...entry, mode: indexMode(entry.mode) });
    return writer.write('tree', treeBytes(dir.entries));
  };
  const treeSha = (await writeDir(root))!;
  const commitSha = await commitTree(gitDir, {
    tree: treeSha, parents: input.parent ? [input.parent] : [], message: input.message, author: input.author, committer: input.committer,
  }, writer);
  return { commitSha, treeSha, blobs, bytes: writer.written };
}
