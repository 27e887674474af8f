// Read-only git object views (Gitea's routers/api/v1/repo/blob.go, tree.go, git_ref.go and
// the ref guessing of context.RepoRefForAPI for raw files). The gateway's route table requires read permission;
// a repository the caller cannot see is a 404 there. Git is reached through the
// GitObjectsGit port (src/git/objects-git.ts), so these rules are testable without git.
import { DomainError, notFound } from '@anvil/kit';
// Pure validators of ref names and object ids (no I/O), shared with the command builder.
import { isObjectId, isValidBranchName, isValidRefName as isSafeRef } from '@anvil/kit';
import type { RepositoryAccess } from './repositories.js';
import type { RepositoryStore } from './store.js';
import type { RepositoryName } from './tags.js';

export interface TreeEntry {
  path: string;
  /** Six octal digits: 100644, 100755, 120000, 040000, 160000. */
  mode: string;
  /** blob, tree or commit (a submodule). */
  type: 'blob' | 'tree' | 'commit';
  sha: string;
  /** Bytes of a blob; 0 otherwise. */
  size: number;
}

/** One entry of a commit's tree, found by path. */
export type RawEntry = TreeEntry;

export interface RefEntry {
  ref: string;
  sha: string;
  type: string;
}

export interface ObjectInfo {
  sha: string;
  type: string;
  size: number;
}

/** The git side of these views, addressed by the repository's git directory. */
export interface GitObjectsGit {
  gitDirOf(owner: string, name: string): string;
  /** Revision names (refs, ids, `x^{commit}`) → object, or undefined when git has none. */
  lookupObjects(gitDir: string, names: readonly string[]): Promise<Map<string, ObjectInfo | undefined>>;
  listTreeEntries(gitDir: string, treeSha: string, recursive: boolean): Promise<TreeEntry[]>;
  listAllRefs(gitDir: string): Promise<RefEntry[]>;
  readBlob(gitDir: string, sha: string): Promise<Buffer>;
}

export interface GitObjectDeps {
  store: RepositoryStore;
  git: GitObjectsGit;
}

function open(deps: GitObjectDeps, access: RepositoryAccess) {
  const repository: RepositoryName = { owner: access.owner.login, name: access.repository.name };
  return { access, repository, gitDir: deps.git.gitDirOf(access.owner.login, access.repository.name) };
}

// Gitea answers 400 with git's "object does not exist" for a sha it cannot read as a blob.
const noSuchObject = (sha: string) => new DomainError('bad_request', `object does not exist [id: ${sha}, rel_path: ]`, 'object_not_found');

export interface BlobView {
  sha: string;
  size: number;
  /** Undefined when the blob is larger than the limit (Gitea then omits content and encoding). */
  content?: Buffer;
  repository: RepositoryName;
}

export async function getBlob(deps: GitObjectDeps, access: RepositoryAccess, sha: string, maxContentSize: number): Promise<BlobView> {
  const { repository, gitDir } = open(deps, access);
  const id = sha.toLowerCase();
  if (!isObjectId(id)) throw noSuchObject(sha);
  const found = (await deps.git.lookupObjects(gitDir, [id])).get(id);
  if (!found || found.type !== 'blob') throw noSuchObject(sha);
  const content = found.size <= maxContentSize ? await deps.git.readBlob(gitDir, found.sha) : undefined;
  return { sha: found.sha, size: found.size, content, repository };
}

export interface TreeQuery {
  sha: string;
  recursive: boolean;
  page: number;
  perPage: number;
  /** [api] DEFAULT_GIT_TREES_PER_PAGE: the page size when none or a larger one is asked. */
  maxPerPage: number;
}

export interface TreePage {
  sha: string;
  entries: TreeEntry[];
  truncated: boolean;
  page: number;
  totalCount: number;
}

/** One page of a tree's entries, as Gitea's GetTreeBySHA cuts it. */
export function pageOfTree(sha: string, entries: TreeEntry[], page: number, perPage: number, maxPerPage: number): TreePage {
  const size = perPage <= 0 || perPage > maxPerPage ? maxPerPage : perPage;
  const current = Math.max(page, 1);
  const start = size * (current - 1);
  if (start >= entries.length) return { sha, entries: [], truncated: false, page: current, totalCount: entries.length };
  const end = Math.min(start + size, entries.length);
  return { sha, entries: entries.slice(start, end), truncated: end < entries.length, page: current, totalCount: entries.length };
}

export async function getTree(deps: GitObjectDeps, access: RepositoryAccess, query: TreeQuery): Promise<TreePage & { repository: RepositoryName }> {
  const { repository, gitDir } = open(deps, access);
  // Gitea's message for any sha it cannot turn into a tree (400).
  const shaNotFound = () => new DomainError('bad_request', `sha not found [${query.sha}]`, 'tree_not_found');
  if (!query.sha) throw new DomainError('bad_request', 'sha not provided', 'sha_missing');
  // A full id, or a branch/tag name as Gitea allows; nothing that could be an option.
  const revision = isObjectId(query.sha.toLowerCase()) ? query.sha.toLowerCase() : query.sha;
  if (!isObjectId(revision) && !isSafeRef(revision)) throw shaNotFound();
  const treeOf = `${revision}^{tree}`;
  const tree = (await deps.git.lookupObjects(gitDir, [treeOf])).get(treeOf);
  if (!tree) throw shaNotFound();
  const entries = await deps.git.listTreeEntries(gitDir, tree.sha, query.recursive);
  return { ...pageOfTree(tree.sha, entries, query.page, query.perPage, query.maxPerPage), repository };
}

/** Refs whose full name starts with `prefix` (Gitea: "refs/" + the path); not_found when none. */
export async function listRefs(deps: GitObjectDeps, access: RepositoryAccess, prefix: string): Promise<{ refs: RefEntry[]; repository: RepositoryName }> {
  const { repository, gitDir } = open(deps, access);
  const refs = (await deps.git.listAllRefs(gitDir)).filter((r) => r.ref.startsWith(prefix));
  if (!refs.length) throw notFound('The target couldn\'t be found.', 'ref_not_found');
  return { refs, repository };
}

/**
 * How a raw file's location is written:
 * - `api`: `{ref}/{path}` or just `{path}` (Gitea's legacy guess), with an optional `ref` query;
 * - `branch` / `tag` / `commit`: the web paths `/raw/branch/{branch}/{path}` and so on.
 */
export type RawRefKind = 'api' | 'branch' | 'tag' | 'commit';

export interface RawLocation {
  kind: RawRefKind;
  /** Everything after `/raw/` (api) or `/raw/{kind}/` (web), slashes included. */
  path: string;
  /** The `ref` query of the API routes; empty when not given. */
  ref?: string;
}

export interface ResolvedLocation {
  commit: string;
  treePath: string;
}

/**
 * A tree path as git stores it: no empty, `.` or `..` segments after collapsing slashes, no
 * NUL. Undefined for anything else (the caller answers 404), so a read never leaves the tree.
 */
export function cleanTreePath(path: string): string | undefined {
  if (path.includes('\0')) return undefined;
  const parts = path.split('/').filter((p) => p !== '');
  if (!parts.length || parts.some((p) => p === '.' || p === '..')) return undefined;
  return parts.join('/');
}

const FULL_COMMIT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const SHORT_COMMIT_ID = /^[0-9a-f]{7,64}$/;
const DEFAULT_BRANCH = 'HEAD^{commit}';

/**
 * Which commit and tree path a raw file request names, as Gitea's RepoRefForAPI/RepoRefByType
 * guess it: the shortest leading segments that name a branch, then a tag, then a commit id
 * (`HEAD` = the default branch). The API without a `ref` falls back to the default branch
 * with the whole path; a `ref` that names nothing is undefined (404). One git process.
 */
export async function resolveLocation(git: Pick<GitObjectsGit, 'lookupObjects'>, gitDir: string, location: RawLocation): Promise<ResolvedLocation | undefined> {
  const ref = (location.ref ?? '').trim();
  const joined = ref ? `${ref}/${location.path}` : location.path;
  const parts = joined.split('/').filter((p) => p !== '');
  if (!parts.length) return undefined;
  const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
  const wantBranches = location.kind === 'api' || location.kind === 'branch';
  const wantTags = location.kind === 'api' || location.kind === 'tag';
  const branchName = (p: string) => `refs/heads/${p}^{commit}`;
  const tagName = (p: string) => `refs/tags/${p}^{commit}`;
  const commitPattern = location.kind === 'commit' ? SHORT_COMMIT_ID : FULL_COMMIT_ID;
  const commitName = commitPattern.test(parts[0]) ? `${parts[0]}^{commit}` : undefined;

  const names = [DEFAULT_BRANCH];
  if (wantBranches) names.push(...prefixes.filter(isValidBranchName).map(branchName));
  if (wantTags) names.push(...prefixes.filter(isValidBranchName).map(tagName));
  if (commitName && location.kind !== 'branch' && location.kind !== 'tag') names.push(commitName);
  const found = await git.lookupObjects(gitDir, names);

  const rest = (i: number) => parts.slice(i + 1).join('/');
  const at = (commit: string | undefined, treePath: string) => (commit ? { commit, treePath } : undefined);
  if (wantBranches) {
    const i = prefixes.findIndex((p) => isValidBranchName(p) && found.get(branchName(p)));
    if (i >= 0) return at(found.get(branchName(prefixes[i]))?.sha, rest(i));
    if (parts[0] === 'HEAD') return at(found.get(DEFAULT_BRANCH)?.sha, rest(0));
  }
  if (wantTags) {
    const i = prefixes.findIndex((p) => isValidBranchName(p) && found.get(tagName(p)));
    if (i >= 0) return at(found.get(tagName(prefixes[i]))?.sha, rest(i));
  }
  if (location.kind === 'api' || location.kind === 'commit') {
    if (commitName) return at(found.get(commitName)?.sha, rest(0));
    if (location.kind === 'commit' && parts[0] === 'HEAD') return at(found.get(DEFAULT_BRANCH)?.sha, rest(0));
  }
  if (location.kind === 'api' && !ref) return at(found.get(DEFAULT_BRANCH)?.sha, location.path);
  return undefined;
}
