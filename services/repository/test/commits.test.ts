// Commits over fakes and raw objects: how a commit object is read (the signed payload
// byte-exact), what verification says without and with a signature, which commit a push is
// refused for, and the rules of the list and single-commit use cases.
import { describe, expect, it } from '@jest/globals';
import { DomainError } from '@anvil/kit';
import type { Owner } from '../src/domain/owner.js';
import type { Repository } from '../src/domain/repository.js';
import type { RepositoryStore } from '../src/domain/store.js';
import { firstUnverified, verifyCommits, type SignatureVerifier, type SignedCommit } from '../src/domain/commit-verification.js';
import { getCommit, isPathInRepository, listCommits, summaryOf, type CommitDeps, type CommitGit, type RawCommit } from '../src/domain/commits.js';
import { parseCommit } from '../src/git/commits.js';

const TREE = 't'.repeat(40);
const PARENT = 'p'.repeat(40);
const SIGNATURE = '-----BEGIN PGP SIGNATURE-----\n\niHUEABYKAB0WIQ\n=abcd\n-----END PGP SIGNATURE-----';

function signedObject(): string {
  const folded = SIGNATURE.split('\n').join('\n ');
  return `tree ${TREE}\nparent ${PARENT}\nauthor Ada <ada@example.com> 1700000000 +0200\ncommitter Bob <bob@example.com> 1700000000 +0000\ngpgsig ${folded}\n\nsubject line\n\nbody\n`;
}

describe('reading a commit object', () => {
  it('keeps the signature unfolded and the signed payload exactly as the object without its gpgsig header', () => {
    const commit = parseCommit('c'.repeat(40), Buffer.from(signedObject()));
    expect(commit.signature?.signature).toBe(`${SIGNATURE}\n`);
    expect(commit.signature?.payload.toString('utf8')).toBe(
      `tree ${TREE}\nparent ${PARENT}\nauthor Ada <ada@example.com> 1700000000 +0200\ncommitter Bob <bob@example.com> 1700000000 +0000\n\nsubject line\n\nbody\n`,
    );
    expect(commit).toMatchObject({ treeSha: TREE, parents: [PARENT], message: 'subject line\n\nbody\n' });
  });

  it('gives dates in RFC 3339 with the commit\'s own offset, Z for +0000', () => {
    const commit = parseCommit('c'.repeat(40), Buffer.from(signedObject()));
    expect(commit.author).toEqual({ name: 'Ada', email: 'ada@example.com', date: '2023-11-15T00:13:20+02:00' });
    expect(commit.committer).toEqual({ name: 'Bob', email: 'bob@example.com', date: '2023-11-14T22:13:20Z' });
  });

  it('has no signature when the object has no gpgsig header', () => {
    const commit = parseCommit('c'.repeat(40), Buffer.from(`tree ${TREE}\nauthor A <a@x> 1 +0000\ncommitter A <a@x> 1 +0000\n\nroot\n`));
    expect(commit.signature).toBeUndefined();
    expect(commit.parents).toEqual([]);
  });

  it('takes the first line as the summary', () => {
    expect(summaryOf('subject line\n\nbody\n')).toBe('subject line');
    expect(summaryOf('only')).toBe('only');
  });
});

function raw(sha: string, signed: boolean, email = 'ada@example.com'): RawCommit {
  const person = { name: 'Ada', email, date: '2023-11-14T22:13:20Z' };
  return {
    sha, treeSha: TREE, parents: [], author: person, committer: person, message: `${sha}\n`,
    signature: signed ? { signature: `sig of ${sha}`, payload: Buffer.from(`payload of ${sha}`) } : undefined,
  };
}

/** A verifier that trusts signatures named in `good` and counts its calls. */
function verifier(good: string[]): SignatureVerifier & { calls: SignedCommit[][] } {
  const calls: SignedCommit[][] = [];
  return {
    calls,
    async verify(commits) {
      calls.push([...commits]);
      return commits.map((c) => (good.includes(c.signature)
        ? { verified: true, reason: 'ada / ABCDEF0123456789' }
        : { verified: false, reason: 'gpg.error.no_gpg_keys_found' }));
    },
  };
}

describe('verification', () => {
  it('answers not_signed_commit for unsigned commits and asks identity once for the signed ones', async () => {
    const v = verifier(['sig of b']);
    const result = await verifyCommits(v, [raw('a', false), raw('b', true), raw('c', true)]);
    expect(v.calls).toHaveLength(1);
    expect(v.calls[0].map((c) => c.signature)).toEqual(['sig of b', 'sig of c']);
    expect(result).toEqual([
      { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', payload: '' },
      { verified: true, reason: 'ada / ABCDEF0123456789', signature: 'sig of b', payload: 'payload of b' },
      { verified: false, reason: 'gpg.error.no_gpg_keys_found', signature: 'sig of c', payload: 'payload of c' },
    ]);
  });

  it('does not call identity for a page without signatures', async () => {
    const v = verifier([]);
    await verifyCommits(v, [raw('a', false)]);
    expect(v.calls).toHaveLength(0);
  });

  it('reports the first commit of a push that is unsigned or does not verify', async () => {
    const v = verifier(['sig of a', 'sig of c']);
    expect(await firstUnverified(v, [raw('a', true), raw('b', false), raw('c', true)])).toBe('b');
    // Nothing after the first unsigned commit needs identity.
    expect(v.calls.map((call) => call.map((c) => c.signature))).toEqual([['sig of a']]);
    expect(await firstUnverified(verifier(['sig of a']), [raw('a', true), raw('b', true)])).toBe('b');
    expect(await firstUnverified(verifier(['sig of a', 'sig of b']), [raw('a', true), raw('b', true)])).toBeUndefined();
  });
});

const owner: Owner = { id: 1, login: 'ada', type: 'user', isAdmin: false, restricted: false, visibility: 'public', fullName: '', email: 'ada@example.com', maxRepoCreation: -1 };

const repositoryOf = (repo: Partial<Repository> = {}) =>
  ({ id: 7, owner_id: 1, owner_login: 'ada', name: 'lib', private: false, archived: false, empty: false, default_branch: 'main', ...repo } as Repository);
/** The repository as the gateway resolved it for Ada (her own). */
const lib = (repo: Partial<Repository> = {}) => ({ repository: repositoryOf(repo), owner, permission: 'owner' as const });

function deps(repo: Partial<Repository> = {}, emails: string[][] = []): CommitDeps {
  const repository = repositoryOf(repo);
  const store = {
    findByNameForViewer: async (o: string, n: string) => (o === 'ada' && n === 'lib' ? { repository, owner, teams: [] } : undefined),
  } as unknown as RepositoryStore;
  const commits = [raw('1'.repeat(40), false), raw('2'.repeat(40), false, 'someone@else.example')];
  const git: CommitGit = {
    gitDirOf: () => '/git/ada/lib.git',
    resolveRevision: async (_d, rev) => (rev === 'main' ? commits[0].sha : undefined),
    countCommits: async () => commits.length,
    commitIds: async (_d, _r, skip, limit) => commits.slice(skip, skip + limit).map((c) => c.sha),
    readCommits: async (_d, ids) => commits.filter((c) => ids.includes(c.sha)),
    filesOf: async (_d, ids) => new Map(ids.map((id) => [id, []])),
    statsOf: async (_d, ids) => new Map(ids.map((id) => [id, { additions: 1, deletions: 0 }])),
    rawDiff: async () => '',
  };
  return {
    store, git, signatures: verifier([]),
    people: {
      async usersByEmails(list) {
        emails.push([...list]);
        return new Map([['ada@example.com', { id: 1, login: 'ada' } as never]]);
      },
    },
  };
}

const details = { stat: true, verification: true, files: true };
const listInput = { sha: '', path: '', not: '', since: '', until: '', page: 1, limit: 30, details, summaryOnly: true };

describe('a history\'s path filter', () => {
  it('takes paths inside the repository and refuses those that climb out or are absolute', () => {
    for (const path of ['b.txt', 'src/a.ts', './b.txt', 'src/../b.txt', '.', 'src/..']) expect(isPathInRepository(path)).toBe(true);
    for (const path of ['..', '../b.txt', 'src/../../b.txt', '/etc/passwd', 'a\0b']) expect(isPathInRepository(path)).toBe(false);
  });
});

describe('listing and reading commits', () => {
  it('names the people of a whole page with one identity call', async () => {
    const asked: string[][] = [];
    const { commits, total } = await listCommits(deps({}, asked), lib(), listInput);
    expect(total).toBe(2);
    expect(asked).toEqual([['ada@example.com', 'someone@else.example']]);
    expect(commits[0].authorUser).toMatchObject({ login: 'ada' });
    expect(commits[1].authorUser).toBeUndefined();
    expect(commits[0].message).toBe('1'.repeat(40));
  });

  it('refuses an empty repository with Gitea\'s conflict', async () => {
    const err = await listCommits(deps({ empty: true }), lib({ empty: true }), listInput).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ kind: 'conflict', message: 'Git Repository is empty.' });
  });

  it('refuses a since that is not an RFC 3339 time', async () => {
    await expect(listCommits(deps(), lib(), { ...listInput, since: 'yesterday' })).rejects.toMatchObject({ kind: 'invalid' });
  });

  it('answers 422 for what can never be a ref and not found for an unknown one', async () => {
    await expect(getCommit(deps(), lib(), '--upload-pack=x', details)).rejects.toMatchObject({ kind: 'invalid', message: 'no valid ref or sha: --upload-pack=x' });
    await expect(getCommit(deps(), lib(), 'nope', details)).rejects.toMatchObject({ kind: 'not_found' });
  });
});
