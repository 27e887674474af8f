// Reading a repository's files (Gitea's services/repository/files/content.go): a path at a
// branch, tag or commit is a file (with its bytes), a symlink, a submodule or a directory
// (its entries). The git work sits behind the RepoFiles port (src/git/contents-git.ts and
// file-changes-git.ts, wired in src/git/content-git.ts), so these rules are plain functions.
import { notFound } from '@anvil/kit';
import type { BranchProtection, PushGitFacts } from './branch-protection.js';
import type { BranchProtectionStore } from './branch-protection-store.js';
import type { RepositoryAccess } from './repositories.js';
import type { RepositoryStore } from './store.js';
import type { TreeEntry } from './git-objects.js';
import type { RepositorySizes } from './repository-size.js';
import type { NewCommit, Signature, WrittenCommit } from './commit-writing.js';

/** One repository's git data, as contents reads and writes need it. */

export type RefKind = 'branch' | 'tag' | 'commit';

/** What a revision named: a branch, a tag or a commit, and the commit it points at. */
export interface ResolvedRevision {
  kind: RefKind;
  /** Branch or tag name, or the full commit id. */
  name: string;
  commitSha: string;
}

/** The newest commit that changed a path. */
export interface LastCommit {
  sha: string;
  authorTime: number;
  committerTime: number;
  message: string;
}

export interface RepoFiles {
  resolve(revision: string): Promise<ResolvedRevision | undefined>;
  /** resolve() in a write turn before it moved any ref (the refs table is current then). */
  resolveAtTurnStart(revision: string): Promise<ResolvedRevision | undefined>;
  /**
   * The repository's branch protection rules, from the statement that reads its refs' rows
   * at a write turn's start (asked first, resolveAtTurnStart then shares it within one
   * refs.readCall); undefined when the repository has no rows yet.
   */
  rulesAtTurnStart(): Promise<BranchProtection[] | undefined>;
  /** Entries at these full paths, with the trees on the way. */
  entries(treeish: string, paths: string[]): Promise<Map<string, TreeEntry>>;
  list(treeish: string, prefix: string): Promise<TreeEntry[]>;
  readBlob(sha: string): Promise<Buffer>;
  lastCommit(commit: string, path: string): Promise<LastCommit | undefined>;
  lastCommits(commit: string, dir: string, names: string[]): Promise<Map<string, LastCommit>>;
  submoduleUrl(commit: string, path: string): Promise<string | undefined>;
  writeCommit(input: NewCommit): Promise<WrittenCommit>;
  /** `update-ref <ref> <new> <old>`; throws RefUpdateConflict when the ref moved meanwhile. */
  updateRef(ref: string, newSha: string, oldSha: string): Promise<void>;
  /**
   * Tells the refs table the one ref this write turn moved, to a commit written by
   * writeCommit, and has the objects that commit stored remembered (they are reachable now).
   */
  headMoved(ref: string, commit: { sha: string; message: string; author: Signature; committer: Signature }): void;
  facts(): PushGitFacts;
  setDefaultBranch(branch: string): Promise<void>;
  /** The repository's git data size, for `size` after a write (as a push updates it). */
  size(): Promise<number>;
}

export interface ContentDeps {
  store: RepositoryStore;
  protections: BranchProtectionStore;
  files(owner: string, name: string): RepoFiles;
  /** [api] DEFAULT_MAX_BLOB_SIZE: larger files are described without their bytes. */
  maxBlobSize: number;
  /** Re-measures `size` after a write, in the background. */
  sizes: Pick<RepositorySizes, 'refresh'>;
}

export type ContentType = 'file' | 'dir' | 'symlink' | 'submodule';

export interface ContentItem {
  name: string;
  path: string;
  sha: string;
  type: ContentType;
  size: number;
  content?: Buffer;
  target?: string;
  submoduleUrl?: string;
  lastCommit?: LastCommit;
}

export interface ContentsView {
  at: ResolvedRevision & { input: string };
  file?: ContentItem;
  entries?: ContentItem[];
}

export interface ContentsQuery {
  path: string;
  revision: string;
  includeContent: boolean;
  includeCommit: boolean;
}

/**
 * A read path as Gitea's CleanGitTreePath leaves it: no leading, trailing or doubled `/`,
 * `.` for the root; undefined when it could never name an entry (`..`, `.git`, NUL).
 */
export function cleanReadPath(path: string): string | undefined {
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.some((p) => p === '..' || p.toLowerCase() === '.git' || p.includes('\0'))) return undefined;
  return parts.join('/');
}

export function contentTypeOf(entry: Pick<TreeEntry, 'mode' | 'type'>): ContentType {
  if (entry.type === 'tree') return 'dir';
  if (entry.type === 'commit') return 'submodule';
  return entry.mode === '120000' ? 'symlink' : 'file';
}

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const pathNotFound = (path: string) => notFound(`object does not exist [id: , rel_path: ${path}]`, 'path_not_found');

/** Describes one entry; `withContent` reads a file's bytes (if not over the blob limit). */
export async function describeEntry(deps: ContentDeps, files: RepoFiles, commit: string, entry: TreeEntry, withContent: boolean): Promise<ContentItem> {
  const type = contentTypeOf(entry);
  const item: ContentItem = { name: baseName(entry.path), path: entry.path, sha: entry.sha, type, size: entry.size };
  if (type === 'file' && withContent && entry.size <= deps.maxBlobSize) item.content = await files.readBlob(entry.sha);
  if (type === 'symlink') item.target = (await files.readBlob(entry.sha)).subarray(0, 1024).toString('utf8');
  if (type === 'submodule') item.submoduleUrl = await files.submoduleUrl(commit, entry.path);
  return item;
}

async function resolveAt(files: RepoFiles, revision: string): Promise<ResolvedRevision> {
  const at = await files.resolve(revision);
  if (!at) throw notFound(`object does not exist [id: ${revision}, rel_path: ]`, 'ref_not_found');
  return at;
}

/** GET /contents/{path} and /contents-ext/{path}: a file, or a directory's entries. */
export async function getContents(deps: ContentDeps, access: RepositoryAccess, query: ContentsQuery): Promise<ContentsView> {
  const repo = access.repository;
  const path = cleanReadPath(query.path);
  if (path === undefined) throw pathNotFound(query.path);
  const input = query.revision || repo.default_branch;
  // An empty repository has an empty root and nothing else (Gitea's GetContentsOrList).
  if (repo.empty) {
    if (path === '') return { at: { input, kind: 'branch', name: input, commitSha: '' }, entries: [] };
    throw pathNotFound(path);
  }
  const files = deps.files(repo.owner_login, repo.name);
  const at = { ...(await resolveAt(files, input)), input };
  let treeish = at.commitSha;
  if (path !== '') {
    const entry = (await files.entries(at.commitSha, [path])).get(path);
    if (!entry) throw pathNotFound(path);
    if (entry.type !== 'tree') {
      const [file, last] = await Promise.all([
        describeEntry(deps, files, at.commitSha, entry, query.includeContent),
        query.includeCommit ? files.lastCommit(at.commitSha, path) : undefined,
      ]);
      return { at, file: { ...file, lastCommit: last } };
    }
    treeish = entry.sha;
  }
  const listed = await files.list(treeish, path);
  const [items, last] = await Promise.all([
    Promise.all(listed.map((e) => describeEntry(deps, files, at.commitSha, e, false))),
    query.includeCommit ? files.lastCommits(at.commitSha, path, listed.map((e) => baseName(e.path))) : undefined,
  ]);
  return { at, entries: items.map((item) => ({ ...item, lastCommit: last?.get(item.name) })) };
}

/** POST/GET /file-contents: several files at one ref, with their bytes; missing paths are left out. */
export async function getFileContents(deps: ContentDeps, access: RepositoryAccess, revision: string, paths: string[]): Promise<{ at: ContentsView['at']; items: ContentItem[] }> {
  const repo = access.repository;
  const input = revision || repo.default_branch;
  if (repo.empty) throw notFound(`object does not exist [id: ${input}, rel_path: ]`, 'ref_not_found');
  const files = deps.files(repo.owner_login, repo.name);
  const at = { ...(await resolveAt(files, input)), input };
  const cleaned = paths.map(cleanReadPath).filter((p): p is string => Boolean(p));
  const found = await files.entries(at.commitSha, cleaned);
  const items: ContentItem[] = [];
  for (const path of cleaned) {
    const entry = found.get(path);
    if (!entry) continue;
    const [item, last] = await Promise.all([describeEntry(deps, files, at.commitSha, entry, true), files.lastCommit(at.commitSha, path)]);
    items.push({ ...item, lastCommit: last });
  }
  return { at, items };
}
