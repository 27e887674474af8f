// Tag use cases (Gitea's routers/api/v1/repo/tag.go): list, get, create (lightweight or
// annotated), delete. The gateway's route table requires read permission to read and write
// permission to write (`repoAccess`); creations and deletions publish tag.created/tag.deleted
// through the outbox.
import { DomainError, alreadyExists, forbidden, invalid, notFound, type Caller } from '@anvil/kit';
import { verifyCommits, type CommitVerification, type SignatureVerifier } from './commit-verification.js';
import type { RawCommit } from './commits.js';
import type { RepositoryAccess } from './repositories.js';
import type { RepositoryStore } from './store.js';
import { refuseMirrorWrites } from './repository.js';
import { settleRefs } from './write-turn.js';

/** A tag as git holds it. */
export interface GitTag {
  name: string;
  /** The tag object's id (annotated) or the commit's (lightweight). */
  id: string;
  /** The commit the tag points at (peeled). */
  commitSha: string;
  annotated: boolean;
  /** The tag's message, or the commit's for a lightweight tag. */
  message: string;
  /** Tagger date (annotated) or committer date (lightweight), unix seconds. */
  created: number;
  tagger?: { name: string; email: string; when: number };
}

/** An annotated tag object (`git cat-file tag`). */
export interface GitAnnotatedTag {
  sha: string;
  tag: string;
  message: string;
  objectSha: string;
  objectType: string;
  tagger: { name: string; email: string; when: number };
}

/** The git side of tags (src/git/tags.ts), addressed by the repository's git directory. */
export interface TagGit {
  gitDirOf(owner: string, name: string): string;
  listTags(gitDir: string): Promise<GitTag[]>;
  findTag(gitDir: string, name: string): Promise<GitTag | undefined>;
  resolveCommit(gitDir: string, revision: string): Promise<string | undefined>;
  /** Throws TagExists (mapped by `isTagExists`) when the tag exists. */
  createTag(gitDir: string, name: string, commit: string, message: string, tagger: { name: string; email: string }): Promise<void>;
  deleteTag(gitDir: string, name: string, id: string): Promise<boolean>;
  readTagObject(gitDir: string, sha: string): Promise<GitAnnotatedTag | undefined>;
  readCommits(gitDir: string, ids: readonly string[]): Promise<RawCommit[]>;
  isTagExists(err: unknown): boolean;
  isValidTagName(name: string): boolean;
}

export interface TagDeps {
  store: RepositoryStore;
  tags: TagGit;
  /** identity checks the tagged commit's signature (an annotated tag shows its commit's verification). */
  signatures: SignatureVerifier;
}

/** The repository's canonical owner and name (for the URLs the gateway builds). */
export interface RepositoryName {
  owner: string;
  name: string;
}

const nameOf = (access: RepositoryAccess): RepositoryName => ({ owner: access.owner.login, name: access.repository.name });

const tagNotFound = (name: string) => notFound(`tag doesn't exist: ${name}`, 'tag_not_found');

/**
 * The repository's git directory; for a write (the caller's write permission is the route
 * table's `repoAccess: 'write'`) also what a tag write needs beyond it.
 */
function open(deps: TagDeps, access: RepositoryAccess, purpose: 'read' | 'write') {
  // Gitea's mustNotBeArchived: an archived repository's tags are read-only (423 at the edge).
  if (purpose === 'write' && access.repository.archived) throw forbidden('repo is archived', 'repo_archived');
  if (purpose === 'write') refuseMirrorWrites(access.repository);
  return { access, gitDir: deps.tags.gitDirOf(access.owner.login, access.repository.name) };
}

export async function listTags(deps: TagDeps, access: RepositoryAccess, offset: number, limit: number): Promise<{ items: GitTag[]; total: number; repository: RepositoryName }> {
  const { gitDir } = open(deps, access, 'read');
  if (access.repository.empty) return { items: [], total: 0, repository: nameOf(access) };
  const all = await deps.tags.listTags(gitDir);
  return { items: all.slice(offset, offset + limit), total: all.length, repository: nameOf(access) };
}

export async function getTag(deps: TagDeps, access: RepositoryAccess, tag: string): Promise<{ tag: GitTag; repository: RepositoryName }> {
  const { gitDir } = open(deps, access, 'read');
  const found = await deps.tags.findTag(gitDir, tag);
  if (!found) throw tagNotFound(tag);
  return { tag: found, repository: nameOf(access) };
}

export interface CreateTagInput {
  tagName: string;
  target: string;
  message: string;
}

function tagEvent(access: RepositoryAccess, tag: GitTag, caller: Caller, kind: 'tag.created' | 'tag.deleted') {
  return { kind, repository: access.repository, name: tag.name, ref: `refs/tags/${tag.name}`, sha: tag.commitSha, pusher: { id: caller.userId, login: caller.login } } as const;
}

export async function createTag(deps: TagDeps, access: RepositoryAccess, input: CreateTagInput, caller: Caller): Promise<{ tag: GitTag; repository: RepositoryName }> {
  const { gitDir } = open(deps, access, 'write');
  if (!deps.tags.isValidTagName(input.tagName)) throw invalid(`tag name is invalid: ${input.tagName}`, 'invalid_tag_name');
  const target = input.target || access.repository.default_branch;
  const commit = await deps.tags.resolveCommit(gitDir, target);
  if (!commit) throw notFound(`target not found: ${target}`, 'tag_target_not_found');
  const user = await deps.store.findOwnerById(caller.userId);
  const tagger = { name: caller.login || user?.login || 'anvil', email: user?.email || `${(caller.login || 'anvil').toLowerCase()}@noreply.anvil` };
  try {
    await deps.tags.createTag(gitDir, input.tagName, commit, input.message, tagger);
  } catch (err) {
    if (deps.tags.isTagExists(err)) throw alreadyExists(`tag already exists [name: ${input.tagName}]`, 'tag_exists');
    throw err;
  }
  const created = await deps.tags.findTag(gitDir, input.tagName);
  if (!created) throw tagNotFound(input.tagName);
  await settleRefs();
  await deps.store.transaction((tx) => tx.publish(tagEvent(access, created, caller, 'tag.created')));
  return { tag: created, repository: nameOf(access) };
}

export async function deleteTag(deps: TagDeps, access: RepositoryAccess, tag: string, caller: Caller): Promise<void> {
  const { gitDir } = open(deps, access, 'write');
  const found = await deps.tags.findTag(gitDir, tag);
  if (!found) throw tagNotFound(tag);
  // Deleting only what we read: a tag moved meanwhile is left alone (and reported missing).
  if (!(await deps.tags.deleteTag(gitDir, found.name, found.id))) throw tagNotFound(tag);
  await settleRefs();
  await deps.store.transaction((tx) => tx.publish(tagEvent(access, found, caller, 'tag.deleted')));
}

/** The commit an annotated tag names (through tags of tags) with its signature's verification. */
export interface TaggedCommit {
  sha: string;
  committerEmail: string;
  verification: CommitVerification;
}

export async function getAnnotatedTag(deps: TagDeps, access: RepositoryAccess, sha: string): Promise<{ tag: GitAnnotatedTag; commit?: TaggedCommit; repository: RepositoryName }> {
  const { gitDir } = open(deps, access, 'read');
  // Gitea answers 400 for anything that is not an annotated tag object (unknown sha, a
  // commit, a lightweight tag's sha).
  const found = await deps.tags.readTagObject(gitDir, sha);
  if (!found) throw new DomainError('bad_request', `object does not exist [id: ${sha}, rel_path: ]`, 'not_a_tag_object');
  return { tag: found, commit: await taggedCommit(deps, gitDir, found), repository: nameOf(access) };
}

/**
 * Gitea's GetAnnotatedTag shows `verification` of the commit the tag peels to
 * (convert.ToAnnotatedTag → ToVerification(commit)); the tag object's own signature is not
 * read. A tag of a tree or blob has no commit, and no verification.
 */
async function taggedCommit(deps: TagDeps, gitDir: string, tag: GitAnnotatedTag): Promise<TaggedCommit | undefined> {
  const sha = tag.objectType === 'commit' ? tag.objectSha : await deps.tags.resolveCommit(gitDir, tag.objectSha);
  if (!sha) return undefined;
  const [commit] = await deps.tags.readCommits(gitDir, [sha]);
  if (!commit) return undefined;
  const [verification] = await verifyCommits(deps.signatures, [commit]);
  return { sha, committerEmail: commit.committer.email, verification };
}
