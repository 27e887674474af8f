// The tag use cases over fakes: what is refused, what is announced. Who may read and write
// is the gateway's route table (`repoAccess`, gateway/test/repo-access.test.ts).
import { describe, expect, it } from '@jest/globals';
import { DomainError, type Caller } from '@anvil/kit';
import type { Owner } from '../src/domain/owner.js';
import type { Repository } from '../src/domain/repository.js';
import type { RepositoryEvent, RepositoryStore } from '../src/domain/store.js';
import { createTag, deleteTag, getAnnotatedTag, listTags, type GitAnnotatedTag, type TagDeps, type TagGit } from '../src/domain/tags.js';
import type { GitTag } from '../src/git/tags.js';

const owner: Owner = { id: 1, login: 'ada', type: 'user', isAdmin: false, restricted: false, visibility: 'public', fullName: '', email: 'ada@example.com', maxRepoCreation: -1 };
const caller = (userId: number, login: string): Caller => ({ userId, login, isAdmin: false, restricted: false, scopes: [] } as unknown as Caller);
const ADA = caller(1, 'ada');
const SHA = 'a'.repeat(40);

function fakes(repo: Partial<Repository> = {}) {
  const repository = { id: 7, owner_id: 1, owner_login: 'ada', name: 'lib', private: false, archived: false, empty: false, default_branch: 'main', ...repo } as Repository;
  const tags = new Map<string, GitTag>();
  const published: RepositoryEvent[] = [];
  const store = {
    findByNameForViewer: async (o: string, n: string) => (o === 'ada' && n === 'lib' ? { repository, owner, teams: [] } : undefined),
    findOwnerById: async (id: number) => (id === 1 ? owner : undefined),
    transaction: async <T>(work: (tx: { publish(e: RepositoryEvent): Promise<void> }) => Promise<T>) => work({ publish: async (e) => { published.push(e); } }),
  } as unknown as RepositoryStore;
  const git: TagGit = {
    gitDirOf: () => '/git/ada/lib.git',
    listTags: async () => [...tags.values()],
    findTag: async (_d, name) => tags.get(name),
    resolveCommit: async (_d, rev) => (rev === 'main' || rev === SHA ? SHA : undefined),
    createTag: async (_d, name, commit, message) => {
      if (tags.has(name)) throw new Error('exists');
      tags.set(name, { name, id: message ? 'b'.repeat(40) : commit, commitSha: commit, annotated: !!message, message, created: 0 });
    },
    deleteTag: async (_d, name) => tags.delete(name),
    readTagObject: async () => undefined,
    readCommits: async () => [],
    isTagExists: (err) => err instanceof Error && err.message === 'exists',
    isValidTagName: (name) => !name.startsWith('-'),
  };
  const deps: TagDeps = { store, tags: git, signatures: { verify: async (commits) => commits.map(() => ({ verified: false, reason: 'gpg.error.no_gpg_keys_found' })) } };
  const access = { repository, owner, permission: 'owner' as const };
  return { deps, access, tags, published };
}

const kindOf = (p: Promise<unknown>) => p.then(() => 'ok', (e: unknown) => (e instanceof DomainError ? `${e.kind}:${e.reason}` : String(e)));

describe('tags', () => {
  it('creates an annotated tag at the default branch and announces tag.created with the commit', async () => {
    const { deps, access, published } = fakes();
    const { tag, repository } = await createTag(deps, access, { tagName: 'v1', target: '', message: 'One' }, ADA);
    expect(repository).toEqual({ owner: 'ada', name: 'lib' });
    expect(tag).toMatchObject({ name: 'v1', commitSha: SHA, annotated: true });
    expect(published).toEqual([expect.objectContaining({ kind: 'tag.created', name: 'v1', ref: 'refs/tags/v1', sha: SHA, pusher: { id: 1, login: 'ada' } })]);
  });

  it('refuses a taken name (already_exists), an unknown target (not_found) and a bad name (invalid), announcing nothing', async () => {
    const { deps, access, published } = fakes();
    await createTag(deps, access, { tagName: 'v1', target: '', message: '' }, ADA);
    published.length = 0;
    expect(await kindOf(createTag(deps, access, { tagName: 'v1', target: '', message: '' }, ADA))).toBe('already_exists:tag_exists');
    expect(await kindOf(createTag(deps, access, { tagName: 'v2', target: 'nope', message: '' }, ADA))).toBe('not_found:tag_target_not_found');
    expect(await kindOf(createTag(deps, access, { tagName: '-x', target: '', message: '' }, ADA))).toBe('invalid:invalid_tag_name');
    expect(published).toEqual([]);
  });

  it('keeps an archived repository\'s tags read-only', async () => {
    const { deps, access } = fakes({ archived: true });
    expect((await listTags(deps, access, 0, 30)).total).toBe(0);
    expect(await kindOf(createTag(deps, access, { tagName: 'v1', target: '', message: '' }, ADA))).toBe('forbidden:repo_archived');
  });

  it('deletes a tag and announces tag.deleted; an unknown tag is not_found', async () => {
    const { deps, access, published } = fakes();
    await createTag(deps, access, { tagName: 'v1', target: '', message: '' }, ADA);
    await deleteTag(deps, access, 'v1', ADA);
    expect(published.map((e) => e.kind)).toEqual(['tag.created', 'tag.deleted']);
    expect(await kindOf(deleteTag(deps, access, 'v1', ADA))).toBe('not_found:tag_not_found');
  });

  it('shows an annotated tag with the verification of the commit it peels to, through a tag of a tag', async () => {
    const { deps, access } = fakes();
    const tagger = { name: 'Ada', email: 'ada@example.com', when: 0 };
    const objects: Record<string, GitAnnotatedTag> = {
      ['c'.repeat(40)]: { sha: 'c'.repeat(40), tag: 'v1', message: 'one', objectSha: SHA, objectType: 'commit', tagger },
      ['d'.repeat(40)]: { sha: 'd'.repeat(40), tag: 'v1-signed', message: 'again', objectSha: 'c'.repeat(40), objectType: 'tag', tagger },
    };
    deps.tags.readTagObject = async (_d, sha) => objects[sha];
    deps.tags.resolveCommit = async (_d, rev) => (rev === SHA || rev === 'c'.repeat(40) ? SHA : undefined);
    deps.tags.readCommits = async (_d, ids) => ids.map((sha) => ({
      sha, treeSha: 'e'.repeat(40), parents: [], message: 'signed',
      author: { name: 'Ada', email: 'ada@example.com', date: '' }, committer: { name: 'Ada', email: 'ada@example.com', date: '' },
      signature: { signature: '-----BEGIN PGP SIGNATURE-----', payload: Buffer.from('tree') },
    }));
    deps.signatures = { verify: async (commits) => commits.map(() => ({ verified: true, reason: 'ada / KEY' })) };

    for (const sha of ['c'.repeat(40), 'd'.repeat(40)]) {
      const { commit } = await getAnnotatedTag(deps, access, sha);
      expect(commit).toEqual({
        sha: SHA, committerEmail: 'ada@example.com',
        verification: { verified: true, reason: 'ada / KEY', signature: '-----BEGIN PGP SIGNATURE-----', payload: 'tree' },
      });
    }
    expect(await kindOf(getAnnotatedTag(deps, access, SHA))).toBe('bad_request:not_a_tag_object');
  });

  it('pages the list', async () => {
    const { deps, access } = fakes();
    for (const name of ['a', 'b', 'c']) await createTag(deps, access, { tagName: name, target: '', message: '' }, ADA);
    const page = await listTags(deps, access, 1, 1);
    expect(page.total).toBe(3);
    expect(page.items.map((t) => t.name)).toEqual(['b']);
  });
});
