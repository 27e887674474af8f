// Signed commits: the API's `verification` checks a commit's GPG signature against the
// committer's keys held by identity, and a branch rule requiring signed commits refuses a push
// whose new commits are unsigned or signed by a key that is not the committer's, with the
// message seen in git's own output. Keys and signatures are made by openpgp; commits are
// written with git plumbing so the signature is exactly over the commit as git stores it.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import * as openpgp from 'openpgp';
import { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e } from '../support/e2e.js';
import { cloneUrl, gitIn } from '../support/git-cli.js';
import type { RunningSystem } from '../support/system.js';

jest.setTimeout(120_000);

let e2e: E2e;
let system: RunningSystem;
let anonymous: ApiClient;
let home: string;
const git = (args: string[], cwd = home) => gitIn(home, args, cwd);

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'sg-user', gitHome: true });
  ({ system, anonymous, home } = e2e);
}, 180_000);

afterAll(() => e2e?.close());

/** A fresh user known to the repository service, with a token that may write repositories. */
const newUser = () => e2e.newWriter();

type User = Awaited<ReturnType<typeof newUser>>;

const keyPair = (email: string) => openpgp.generateKey({ userIDs: [{ name: 'Key Holder', email }], format: 'armored' });

async function keyIdOf(publicKey: string): Promise<string> {
  return (await openpgp.readKey({ armoredKey: publicKey })).getKeyID().toHex().toUpperCase();
}

/**
 * Commits the work tree's staged changes on top of HEAD as `committer`, signed with
 * `privateKey` (unsigned when none): the signature covers the commit object without its
 * gpgsig header, as git's own signing does.
 */
async function commitSigned(work: string, committer: { name: string; email: string }, message: string, privateKey?: string): Promise<string> {
  expect((await git(['add', '-A'], work)).code).toBe(0);
  const tree = (await git(['write-tree'], work)).stdout.trim();
  const parent = (await git(['rev-parse', 'HEAD'], work)).stdout.trim();
  const when = `${Math.floor(Date.now() / 1000)} +0000`;
  const person = `${committer.name} <${committer.email}> ${when}`;
  const headers = `tree ${tree}\nparent ${parent}\nauthor ${person}\ncommitter ${person}\n`;
  const body = `\n${message}\n`;
  let object = headers + body;
  if (privateKey) {
    const signature = await openpgp.sign({
      message: await openpgp.createMessage({ binary: new TextEncoder().encode(object) }),
      signingKeys: await openpgp.readPrivateKey({ armoredKey: privateKey }),
      detached: true,
    }) as string;
    const folded = signature.trimEnd().split('\n').join('\n ');
    object = `${headers}gpgsig ${folded}\n${body}`;
  }
  const file = join(work, '..', `commit-${Date.now()}-${Math.random()}.txt`);
  await writeFile(file, object);
  const written = await git(['hash-object', '-t', 'commit', '-w', file], work);
  expect(written.code).toBe(0);
  const sha = written.stdout.trim();
  expect((await git(['reset', '-q', '--hard', sha], work)).code).toBe(0);
  return sha;
}

/** A repository with an initial commit, cloned; `remote` pushes as the owner. */
async function repoWithClone(owner: User, name: string) {
  expect((await owner.client.post('/user/repos', { name, auto_init: true })).status).toBe(201);
  const dir = await mkdtemp(join(home, `${name}-`));
  const remote = cloneUrl(system.baseUrl, `${owner.username}/${name}.git`, owner.username, owner.token);
  expect((await git(['clone', '-q', remote, 'work'], dir)).code).toBe(0);
  return { work: join(dir, 'work'), remote, base: `/repos/${owner.username}/${name}` };
}

let ada: User;
let adaKey: Awaited<ReturnType<typeof keyPair>>;
let strangerKey: Awaited<ReturnType<typeof keyPair>>;

beforeAll(async () => {
  ada = await newUser();
  adaKey = await keyPair(ada.email);
  strangerKey = await keyPair(ada.email);
  expect((await ada.client.post('/user/gpg_keys', { armored_public_key: adaKey.publicKey })).status).toBe(201);
});

describe('commit verification in the API', () => {
  test('a commit signed with the committer\'s registered key is verified, naming the signer', async () => {
    const { work, remote, base } = await repoWithClone(ada, 'verified');
    await writeFile(join(work, 'signed.txt'), 'signed\n');
    const sha = await commitSigned(work, { name: 'Ada', email: ada.email }, 'a signed commit', adaKey.privateKey);
    expect((await git(['push', '-q', remote, 'HEAD:main'], work)).code).toBe(0);

    const res = await anonymous.get(`${base}/git/commits/${sha}`);
    expect(res.status).toBe(200);
    expect(res.body.commit.verification).toMatchObject({
      verified: true,
      reason: `${ada.username} / ${await keyIdOf(adaKey.publicKey)}`,
      signer: { name: ada.username, username: ada.username },
      signature: expect.stringContaining('-----BEGIN PGP SIGNATURE-----'),
      payload: expect.stringContaining('a signed commit'),
    });
    const listed = await anonymous.get(`${base}/commits?limit=1`);
    expect(listed.body[0].commit.verification.verified).toBe(true);
  });

  test('a commit signed by a key the committer never registered is unverified, with Gitea\'s reason', async () => {
    const { work, remote, base } = await repoWithClone(ada, 'stranger');
    await writeFile(join(work, 'x.txt'), 'x\n');
    const stranger = await commitSigned(work, { name: 'Ada', email: ada.email }, 'signed by a stranger', strangerKey.privateKey);
    await writeFile(join(work, 'y.txt'), 'y\n');
    const nobody = await commitSigned(work, { name: 'Nobody', email: 'nobody@elsewhere.example' }, 'signed by nobody we know', adaKey.privateKey);
    await writeFile(join(work, 'z.txt'), 'z\n');
    const plain = await commitSigned(work, { name: 'Ada', email: ada.email }, 'not signed');
    expect((await git(['push', '-q', remote, 'HEAD:main'], work)).code).toBe(0);

    const list = await anonymous.get(`${base}/commits?limit=3`);
    const bySha = new Map(list.body.map((c: { sha: string; commit: { verification: unknown } }) => [c.sha, c.commit.verification]));
    expect(bySha.get(stranger)).toMatchObject({ verified: false, reason: 'gpg.error.no_gpg_keys_found', signature: expect.stringContaining('PGP SIGNATURE') });
    expect(bySha.get(nobody)).toMatchObject({ verified: false, reason: 'gpg.error.no_committer_account' });
    expect(bySha.get(plain)).toMatchObject({ verified: false, reason: 'gpg.error.not_signed_commit', signature: '', payload: '' });
  });
});

describe('annotated tag verification in the API', () => {
  // Gitea's GetAnnotatedTag shows the tagged commit's verification (convert.ToAnnotatedTag),
  // not a signature of the tag object itself.
  test('an annotated tag of a signed commit shows the commit\'s verification; of an unsigned one, not signed', async () => {
    const { work, remote, base } = await repoWithClone(ada, 'tagged');
    await writeFile(join(work, 'signed.txt'), 'signed\n');
    const signed = await commitSigned(work, { name: 'Ada', email: ada.email }, 'a signed release', adaKey.privateKey);
    await writeFile(join(work, 'plain.txt'), 'plain\n');
    const plain = await commitSigned(work, { name: 'Ada', email: ada.email }, 'an unsigned release');
    expect((await git(['push', '-q', remote, 'HEAD:main'], work)).code).toBe(0);

    const signedTag = await ada.client.post(`${base}/tags`, { tag_name: 'v1.0.0', target: signed, message: 'release one' });
    expect(signedTag.status).toBe(201);
    const shown = await anonymous.get(`${base}/git/tags/${signedTag.body.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.object).toMatchObject({ type: 'commit', sha: signed });
    expect(shown.body.verification).toMatchObject({
      verified: true,
      reason: `${ada.username} / ${await keyIdOf(adaKey.publicKey)}`,
      signer: { name: ada.username, username: ada.username },
      payload: expect.stringContaining('a signed release'),
    });

    const plainTag = await ada.client.post(`${base}/tags`, { tag_name: 'v2.0.0', target: plain, message: 'release two' });
    expect(plainTag.status).toBe(201);
    const unsigned = await anonymous.get(`${base}/git/tags/${plainTag.body.id}`);
    expect(unsigned.body.verification).toMatchObject({ verified: false, reason: 'gpg.error.not_signed_commit', signature: '', payload: '' });
  });
});

describe('a branch rule requiring signed commits, on git push', () => {
  test('refuses a commit signed by a key not registered to the committer, and lets a verified one land', async () => {
    const { work, remote, base } = await repoWithClone(ada, 'guarded');
    expect((await ada.client.post(`${base}/branch_protections`, { rule_name: 'main', enable_push: true, require_signed_commits: true })).status).toBe(201);

    await writeFile(join(work, 'bad.txt'), 'bad\n');
    const unverified = await commitSigned(work, { name: 'Ada', email: ada.email }, 'signed by a stranger', strangerKey.privateKey);
    const refused = await git(['push', remote, 'HEAD:main'], work);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`branch main is protected from unverified commit ${unverified}`);
    const head = (await anonymous.get(`${base}/branches/main`)).body.commit.id;
    expect(head).not.toBe(unverified);

    expect((await git(['reset', '-q', '--hard', 'HEAD~1'], work)).code).toBe(0);
    await writeFile(join(work, 'good.txt'), 'good\n');
    const verified = await commitSigned(work, { name: 'Ada', email: ada.email }, 'signed by Ada', adaKey.privateKey);
    const accepted = await git(['push', remote, 'HEAD:main'], work);
    expect(accepted.stderr).not.toContain('protected');
    expect(accepted.code).toBe(0);
    expect((await anonymous.get(`${base}/branches/main`)).body.commit.id).toBe(verified);
  });

  test('refuses an unsigned commit', async () => {
    const { work, remote, base } = await repoWithClone(ada, 'guarded-plain');
    expect((await ada.client.post(`${base}/branch_protections`, { rule_name: 'main', enable_push: true, require_signed_commits: true })).status).toBe(201);
    await writeFile(join(work, 'plain.txt'), 'plain\n');
    const plain = await commitSigned(work, { name: 'Ada', email: ada.email }, 'unsigned');
    const refused = await git(['push', remote, 'HEAD:main'], work);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`branch main is protected from unverified commit ${plain}`);
  });
});
