// GPG keys as a Gitea client sees them: a user adds a key whose e-mail is theirs, lists,
// reads and deletes it, proves they hold it by signing the verification token; other
// people's keys are not found; bad armor and duplicates are 422. Also the admin's
// finishing touches on users: renaming an account and editing every EditUserOption field.
// Keys and signatures are made in the test by openpgp itself.
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import * as openpgp from 'openpgp';
import type { Accounts } from '../support/accounts.js';
import { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e } from '../support/e2e.js';
import type { RunningSystem } from '../support/system.js';

jest.setTimeout(60_000);

let e2e: E2e;
let system: RunningSystem;
let anonymous: ApiClient;
let admin: ApiClient;
let users: Accounts;

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'gpg' });
  ({ system, anonymous, admin, users } = e2e);
}, 180_000);

afterAll(() => e2e?.close());

const newUser = (fields: Record<string, unknown> = {}) => users.newUser(fields, { repositoryKnows: false });

async function keyPair(email: string) {
  return openpgp.generateKey({ userIDs: [{ name: 'Key Holder', email }], format: 'armored' });
}

async function signDetached(privateKey: string, text: string): Promise<string> {
  return openpgp.sign({
    message: await openpgp.createMessage({ binary: new TextEncoder().encode(text) }),
    signingKeys: await openpgp.readPrivateKey({ armoredKey: privateKey }),
    detached: true,
  }) as Promise<string>;
}

async function keyIdOf(publicKey: string): Promise<string> {
  return (await openpgp.readKey({ armoredKey: publicKey })).getKeyID().toHex().toUpperCase();
}

describe('a user\'s GPG keys', () => {
  test('a key whose e-mail is the user\'s is added (201) with its subkey, e-mails and capabilities', async () => {
    const ada = await newUser();
    const { publicKey } = await keyPair(ada.email);
    const res = await ada.client.post('/user/gpg_keys', { armored_public_key: publicKey });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      key_id: await keyIdOf(publicKey),
      primary_key_id: '',
      emails: [{ email: ada.email, verified: true }],
      can_sign: true,
      can_certify: true,
      verified: false,
      expires_at: '0001-01-01T00:00:00Z',
    });
    expect(res.body.subkeys).toHaveLength(1);
    expect(res.body.subkeys[0]).toMatchObject({ primary_key_id: res.body.key_id, can_encrypt_comms: true, can_sign: false });
  });

  test('are listed for the owner and for anyone under /users/{username}/gpg_keys, read and deleted', async () => {
    const ada = await newUser();
    const added = (await ada.client.post('/user/gpg_keys', { armored_public_key: (await keyPair(ada.email)).publicKey })).body;

    const mine = await ada.client.get('/user/gpg_keys');
    expect(mine.status).toBe(200);
    expect(mine.body.map((k: { id: number }) => k.id)).toEqual([added.id]);
    expect(mine.headers.get('x-total-count')).toBe('1');

    const theirs = await anonymous.get(`/users/${ada.username}/gpg_keys`);
    expect(theirs.status).toBe(200);
    expect(theirs.body.map((k: { key_id: string }) => k.key_id)).toEqual([added.key_id]);

    const one = await ada.client.get(`/user/gpg_keys/${added.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: added.id, key_id: added.key_id });

    expect((await ada.client.delete(`/user/gpg_keys/${added.id}`)).status).toBe(204);
    expect((await ada.client.get(`/user/gpg_keys/${added.id}`)).status).toBe(404);
    expect((await ada.client.get('/user/gpg_keys')).body).toEqual([]);
  });

  test('a private user\'s keys are hidden (404) from anonymous callers, shown to signed-in ones only if allowed', async () => {
    const ada = await newUser();
    await ada.client.post('/user/gpg_keys', { armored_public_key: (await keyPair(ada.email)).publicKey });
    await admin.patch(`/admin/users/${ada.username}`, { source_id: 0, login_name: ada.username, visibility: 'private' });
    expect((await anonymous.get(`/users/${ada.username}/gpg_keys`)).status).toBe(404);
    const bob = await newUser();
    expect((await bob.client.get(`/users/${ada.username}/gpg_keys`)).status).toBe(404);
    expect((await admin.get(`/users/${ada.username}/gpg_keys`)).body).toHaveLength(1);
    expect((await anonymous.get('/users/no-such-user-here/gpg_keys')).status).toBe(404);
  });

  test('another user\'s key is not found for reading or deleting, and stays', async () => {
    const ada = await newUser();
    const bob = await newUser();
    const added = (await ada.client.post('/user/gpg_keys', { armored_public_key: (await keyPair(ada.email)).publicKey })).body;
    expect((await bob.client.get(`/user/gpg_keys/${added.id}`)).status).toBe(404);
    expect((await bob.client.delete(`/user/gpg_keys/${added.id}`)).status).toBe(404);
    expect((await ada.client.get(`/user/gpg_keys/${added.id}`)).status).toBe(200);
  });

  test('garbage armor is 422 with a parse message, and nothing is added', async () => {
    const ada = await newUser();
    const res = await ada.client.post('/user/gpg_keys', { armored_public_key: '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nbm90IGEga2V5\n-----END PGP PUBLIC KEY BLOCK-----\n' });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/failed to parse gpg key/);
    expect((await ada.client.post('/user/gpg_keys', { armored_public_key: 'hello' })).status).toBe(422);
    expect((await ada.client.post('/user/gpg_keys', {})).status).toBe(422);
    expect((await ada.client.get('/user/gpg_keys')).body).toEqual([]);
  });

  test('the same key twice is 422, for the owner and for anyone else', async () => {
    const ada = await newUser();
    const bob = await newUser();
    const { publicKey } = await keyPair(ada.email);
    expect((await ada.client.post('/user/gpg_keys', { armored_public_key: publicKey })).status).toBe(201);
    const again = await ada.client.post('/user/gpg_keys', { armored_public_key: publicKey });
    expect(again.status).toBe(422);
    expect(again.body.message).toBe('A key with the same id already exists');
    expect((await bob.client.post('/user/gpg_keys', { armored_public_key: publicKey })).status).toBe(422);
  });

  test('a key naming none of the user\'s e-mails is 404 with Gitea\'s message naming the token to sign', async () => {
    const ada = await newUser();
    const token = (await ada.client.get('/user/gpg_key_token')).text;
    const res = await ada.client.post('/user/gpg_keys', { armored_public_key: (await keyPair('stranger@example.org')).publicKey });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(`None of the emails attached to the GPG key could be found. It may still be added if you provide a valid signature for the token: ${token}`);
    expect((await ada.client.get('/user/gpg_keys')).body).toEqual([]);
  });

  test('signing the verification token proves the key: on add, or later with gpg_key_verify', async () => {
    const ada = await newUser();
    const tokenRes = await ada.client.get('/user/gpg_key_token');
    expect(tokenRes.status).toBe(200);
    expect(tokenRes.headers.get('content-type')).toMatch(/^text\/plain/);
    const token = tokenRes.text;
    expect(token).toMatch(/^[0-9a-f]{64}$/);

    // A key with a foreign e-mail is accepted when it signs the token, and is verified.
    const foreign = await keyPair('elsewhere@example.org');
    const signedAdd = await ada.client.post('/user/gpg_keys', {
      armored_public_key: foreign.publicKey, armored_signature: await signDetached(foreign.privateKey, `${token}\n`),
    });
    expect(signedAdd.status).toBe(201);
    expect(signedAdd.body.verified).toBe(true);

    const own = await keyPair(ada.email);
    const added = (await ada.client.post('/user/gpg_keys', { armored_public_key: own.publicKey })).body;
    expect(added.verified).toBe(false);
    const wrong = await ada.client.post('/user/gpg_key_verify', { key_id: added.key_id, armored_signature: await signDetached(own.privateKey, 'not the token') });
    expect(wrong.status).toBe(422);
    const verified = await ada.client.post('/user/gpg_key_verify', { key_id: added.key_id, armored_signature: await signDetached(own.privateKey, token) });
    // Gitea's handler answers 200 here, though its document declares 201.
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ id: added.id, verified: true });
    expect((await ada.client.get(`/user/gpg_keys/${added.id}`)).body.verified).toBe(true);
  });

  test('need a signed-in caller, and a token with the user scope', async () => {
    expect((await anonymous.get('/user/gpg_keys')).status).toBe(401);
    const ada = await newUser();
    const tokenRes = await ada.client.post(`/users/${ada.username}/tokens`, { name: 'repo-only', scopes: ['read:repository'] });
    const scoped = anonymous.as({ token: tokenRes.body.sha1 });
    expect((await scoped.get('/user/gpg_keys')).status).toBe(403);
  });
});

describe('the site admin finishing touches on users', () => {
  test('renames a user, who then signs in under the new name only', async () => {
    const ada = await newUser();
    const newName = `${ada.username}-renamed`;
    const res = await admin.post(`/admin/users/${ada.username}/rename`, { new_username: newName });
    expect(res.status).toBe(204);
    const me = await anonymous.as({ basic: [newName, ada.password] }).get('/user');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: ada.id, login: newName });
    expect((await anonymous.get(`/users/${ada.username}`)).status).toBe(404);
    expect((await ada.client.get('/user')).status).toBe(401);
  });

  test('refuses a rename to a taken, reserved or malformed name with 422, changing nothing', async () => {
    const ada = await newUser();
    const bob = await newUser();
    for (const name of [bob.username, bob.username.toUpperCase(), 'api', 'bad name', '']) {
      const res = await admin.post(`/admin/users/${ada.username}/rename`, { new_username: name });
      expect(res.status).toBe(422);
    }
    expect((await ada.client.get('/user')).body.login).toBe(ada.username);
  });

  test('a rename is site-admin work: a normal user gets 403', async () => {
    const ada = await newUser();
    expect((await ada.client.post(`/admin/users/${ada.username}/rename`, { new_username: `${ada.username}x` })).status).toBe(403);
  });

  test('edits every field of EditUserOption', async () => {
    const ada = await newUser();
    const res = await admin.patch(`/admin/users/${ada.username}`, {
      source_id: 0,
      login_name: ada.username,
      email: `new-${ada.email}`,
      full_name: 'Ada Edited',
      password: 'a-brand-new-password',
      must_change_password: false,
      website: 'https://ada.example.com',
      location: 'London',
      description: 'Counts things',
      active: true,
      admin: false,
      allow_git_hook: true,
      allow_import_local: true,
      max_repo_creation: 7,
      prohibit_login: false,
      allow_create_organization: false,
      restricted: true,
      visibility: 'limited',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      email: `new-${ada.email}`, full_name: 'Ada Edited', website: 'https://ada.example.com', location: 'London',
      description: 'Counts things', active: true, is_admin: false, prohibit_login: false, restricted: true, visibility: 'limited',
    });
    const listed = (await admin.get(`/admin/users?q=${ada.username}`)).body.find((u: { id: number }) => u.id === ada.id);
    expect(listed).toMatchObject({ restricted: true, visibility: 'limited' });
    expect((await anonymous.as({ basic: [ada.username, 'a-brand-new-password'] }).get('/user')).status).toBe(200);
    expect((await ada.client.get('/user')).status).toBe(401);

    const prohibited = await admin.patch(`/admin/users/${ada.username}`, { source_id: 0, login_name: ada.username, prohibit_login: true });
    expect(prohibited.body.prohibit_login).toBe(true);
  });
});
