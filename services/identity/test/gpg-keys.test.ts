// GPG keys: parsing armored keys, matching their e-mails against the owner's addresses,
// the token verification flow, and verifying commit signatures against stored keys.
// Keys and signatures are made here by openpgp itself.
import { beforeEach, describe, expect, jest, test } from '@jest/globals';
import * as openpgp from 'openpgp';
import { addEmails } from '../src/domain/emails.js';
import { addGpgKey, deleteGpgKey, getGpgKey, gpgKeyToken, listGpgKeys, verifyGpgKey, type GpgKeys } from '../src/domain/gpg-keys.js';
import { parseArmoredGpgKeys } from '../src/domain/gpg-keys-parse.js';
import { verifyCommitSignature } from '../src/domain/gpg-keys-signature.js';
import { callerOf, failureOf, givenUser, SYSTEM } from './support/fixtures.js';
import { memoryIdentity } from './support/memory-store.js';
import { MemoryGpgKeyStore } from './support/memory-gpg-key-store.js';

jest.setTimeout(30_000);

async function keyPair(...emails: string[]) {
  return openpgp.generateKey({ userIDs: emails.map((email) => ({ name: 'Test Person', email })), format: 'armored' });
}

async function signDetached(privateKey: string, payload: string | Uint8Array): Promise<string> {
  const binary = typeof payload === 'string' ? new TextEncoder().encode(payload) : payload;
  return openpgp.sign({
    message: await openpgp.createMessage({ binary }),
    signingKeys: await openpgp.readPrivateKey({ armoredKey: privateKey }),
    detached: true,
  }) as Promise<string>;
}

let ctx: GpgKeys;
beforeEach(() => {
  ctx = { identity: memoryIdentity(), keys: new MemoryGpgKeyStore() };
});

describe('parsing armored keys', () => {
  test('reads the primary key and its subkey with Gitea-style key ids and capabilities', async () => {
    const { publicKey } = await keyPair('ada@example.com');
    const [key] = await parseArmoredGpgKeys(publicKey);
    const expected = (await openpgp.readKey({ armoredKey: publicKey })).getKeyID().toHex().toUpperCase();
    expect(key!.key_id).toBe(expected);
    expect(key!.key_id).toMatch(/^[0-9A-F]{16}$/);
    // ed25519 signs and certifies, the cv25519 subkey encrypts (as Go's algorithm checks say).
    expect(key).toMatchObject({ can_sign: true, can_certify: true, can_encrypt_comms: false, expires_at: null, user_emails: ['ada@example.com'] });
    expect(key!.subkeys).toHaveLength(1);
    expect(key!.subkeys[0]).toMatchObject({ can_sign: false, can_encrypt_comms: true, can_encrypt_storage: true });
    expect(key!.content.length).toBeGreaterThan(0);
  });

  test('reads an expiry date from the self-signature', async () => {
    const { publicKey } = await openpgp.generateKey({ userIDs: [{ email: 'a@example.com' }], keyExpirationTime: 86_400, format: 'armored' });
    const [key] = await parseArmoredGpgKeys(publicKey);
    expect(key!.expires_at!.getTime() - key!.created_at.getTime()).toBe(86_400_000);
  });

  test('refuses garbage with a parse error (invalid, not a crash)', async () => {
    const failure = await failureOf(parseArmoredGpgKeys('-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nnot a key\n-----END PGP PUBLIC KEY BLOCK-----'));
    expect(failure).toMatchObject({ kind: 'invalid', reason: 'gpg_key_parsing' });
    expect(failure.message).toMatch(/^failed to parse gpg key/);
    expect(await failureOf(parseArmoredGpgKeys('hello'))).toMatchObject({ kind: 'invalid', reason: 'gpg_key_parsing' });
  });

  test('reads every key of a block holding several, once each', async () => {
    const one = await openpgp.readKey({ armoredKey: (await keyPair('a@example.com')).publicKey });
    const two = await openpgp.readKey({ armoredKey: (await keyPair('b@example.com')).publicKey });
    const bytes = new Uint8Array([...one.write(), ...two.write(), ...one.write()]);
    const block = openpgp.armor(openpgp.enums.armor.publicKey, bytes);
    const keys = await parseArmoredGpgKeys(block);
    expect(keys.map((k) => k.key_id)).toEqual([one.getKeyID().toHex().toUpperCase(), two.getKeyID().toHex().toUpperCase()]);
  });

  test('refuses a private key', async () => {
    const { privateKey } = await keyPair('a@example.com');
    expect(await failureOf(parseArmoredGpgKeys(privateKey))).toMatchObject({ kind: 'invalid', reason: 'gpg_key_parsing' });
  });
});

describe('adding a key', () => {
  test('keeps only the user ids that are the owner\'s addresses, case-insensitively', async () => {
    const ada = await givenUser(ctx.identity, 'ada');
    const { publicKey } = await keyPair('ADA@example.com', 'someone-else@example.com');
    const key = await addGpgKey(ctx, callerOf(ada), ada.id, publicKey, '');
    expect(key.emails).toEqual(['ada@example.com']);
    expect(key.verified).toBe(false);
    expect(key.subkeys).toHaveLength(1);
    expect((await listGpgKeys(ctx, { id: ada.id })).items.map((k) => k.id)).toEqual([key.id]);
  });

  test('matches secondary addresses too', async () => {
    const ada = await givenUser(ctx.identity, 'ada');
    await addEmails(ctx.identity, callerOf(ada), ada.id, ['work@example.org']);
    const key = await addGpgKey(ctx, callerOf(ada), ada.id, (await keyPair('work@example.org')).publicKey, '');
    expect(key.emails).toEqual(['work@example.org']);
  });

  test('adds every key of a block and answers the first', async () => {
    const ada = await givenUser(ctx.identity, 'ada');
    const one = await openpgp.readKey({ armoredKey: (await keyPair('ada@example.com')).publicKey });
    const two = await openpgp.readKey({ armoredKey: (await keyPair('ada@example.com')).publicKey });
    const block = openpgp.armor(openpgp.enums.armor.publicKey, new Uint8Array([...one.write(), ...two.write()]));
    const key = await addGpgKey(ctx, callerOf(ada), ada.id, block, '');
    expect(key.key_id).toBe(one.getKeyID().toHex().toUpperCase());
    expect((await listGpgKeys(ctx, { login: 'ADA' })).total).toBe(2);
  });

  test('refuses a key naming none of the owner\'s addresses, and offers the token', async () => {
    const ada = await givenUser(ctx.identity, 'ada');
    const failure = await failureOf(addGpgKey(ctx, callerOf(ada), ada.id, (await keyPair('stranger@example.com')).publicKey, ''));
    expect(failure).toMatchObject({ kind: 'not_found', reason: 'gpg_no_email_found' });
    expect(failure.message).toContain(await gpgKeyToken(ctx, callerOf(ada), ada.id));
    expect((ctx.keys as MemoryGpgKeyStore).keys).toHaveLength(0);
  });

  test('accepts a key with foreign e-mails when it signs the token, and marks it verified', async () => {
    const ada = await givenUser(ctx.identity, 'ada');
    const { publicKey, privateKey } = await keyPair('stranger@example.com');
    const token = await gpgKeyToken(ctx, callerOf(ada), ada.id);
    const key = await addGpgKey(ctx, callerOf(ada), ada.id, publicKey, await signDetached(privateKey, `${token}\n`));
    expect(key).toMatchObject({ verified: true, emails: [] });
  });

  test('refuses a signature over something else than the token', async () => {
    const ada = await givenUser(ctx.identity, 'ada');
    const { publicKey, privateKey } = await keyPair('ada@example.com');
    const failure = await failureOf(addGpgKey(ctx, callerOf(ada), ada.id, publicKey, await signDetached(privateKey, 'not the token')));
    expect(failure).toMatchObject({ kind: 'invalid', reason: 'gpg_invalid_token_signature' });
  });

  test('refuses the same key twice, even for another user', async () => {
    const ada = await givenUser(ctx.identity, 'ada');
    const bob = await givenUser(ctx.identity, 'bob');
    await addEmails(ctx.identity, callerOf(bob), bob.id, ['shared@example.net']);
    const { publicKey } = await keyPair('ada@example.com', 'shared@example.net');
    await addGpgKey(ctx, callerOf(ada), ada.id, publicKey, '');
    expect(await failureOf(addGpgKey(ctx, callerOf(ada), ada.id, publicKey, ''))).toMatchObject({ kind: 'invalid', reason: 'gpg_key_id_used' });
    expect(await failureOf(addGpgKey(ctx, callerOf(bob), bob.id, publicKey, ''))).toMatchObject({ kind: 'invalid', reason: 'gpg_key_id_used' });
  });

  test('another user cannot add, read or delete keys in someone\'s name', async () => {
    const ada = await givenUser(ctx.identity, 'ada');
    const bob = await givenUser(ctx.identity, 'bob');
    const key = await addGpgKey(ctx, callerOf(ada), ada.id, (await keyPair('ada@example.com')).publicKey, '');
    expect(await failureOf(getGpgKey(ctx, callerOf(bob), bob.id, key.id))).toMatchObject({ kind: 'not_found' });
    expect(await failureOf(deleteGpgKey(ctx, callerOf(bob), bob.id, key.id))).toMatchObject({ kind: 'not_found' });
    expect(await failureOf(getGpgKey(ctx, callerOf(bob), ada.id, key.id))).toMatchObject({ kind: 'forbidden' });
    await deleteGpgKey(ctx, callerOf(ada), ada.id, key.id);
    expect((await listGpgKeys(ctx, { id: ada.id })).total).toBe(0);
  });
});

describe('verifying a key with the token', () => {
  test('a signature over the token verifies the key; other signatures do not', async () => {
    const ada = await givenUser(ctx.identity, 'ada');
    const { publicKey, privateKey } = await keyPair('ada@example.com');
    const key = await addGpgKey(ctx, callerOf(ada), ada.id, publicKey, '');
    const wrong = await failureOf(verifyGpgKey(ctx, callerOf(ada), ada.id, key.key_id, await signDetached(privateKey, 'nope')));
    expect(wrong).toMatchObject({ kind: 'invalid', reason: 'gpg_invalid_token_signature' });

    const token = await gpgKeyToken(ctx, callerOf(ada), ada.id);
    const verified = await verifyGpgKey(ctx, callerOf(ada), ada.id, key.key_id.toLowerCase(), await signDetached(privateKey, token));
    expect(verified.verified).toBe(true);
    expect((await getGpgKey(ctx, callerOf(ada), ada.id, key.id)).verified).toBe(true);
  });

  test('a text-mode signature of the token (gpg --textmode) is accepted too', async () => {
    const ada = await givenUser(ctx.identity, 'ada');
    const { publicKey, privateKey } = await keyPair('ada@example.com');
    const key = await addGpgKey(ctx, callerOf(ada), ada.id, publicKey, '');
    const token = await gpgKeyToken(ctx, callerOf(ada), ada.id);
    const signature = await openpgp.sign({
      message: await openpgp.createMessage({ text: `${token}\n` }),
      signingKeys: await openpgp.readPrivateKey({ armoredKey: privateKey }),
      detached: true,
    }) as string;
    expect((await verifyGpgKey(ctx, callerOf(ada), ada.id, key.key_id, signature)).verified).toBe(true);
  });

  test('the token of the previous minute is still accepted, older ones are not', async () => {
    const ada = await givenUser(ctx.identity, 'ada');
    const { publicKey, privateKey } = await keyPair('ada@example.com');
    const key = await addGpgKey(ctx, callerOf(ada), ada.id, publicKey, '');
    const issued = new Date('2026-11-23T10:00:30Z');
    const token = await gpgKeyToken(ctx, callerOf(ada), ada.id, issued);
    const signature = await signDetached(privateKey, token);
    const later = new Date(issued.getTime() + 60_000);
    expect((await verifyGpgKey(ctx, callerOf(ada), ada.id, key.key_id, signature, later)).verified).toBe(true);
    const muchLater = new Date(issued.getTime() + 180_000);
    expect(await failureOf(verifyGpgKey(ctx, callerOf(ada), ada.id, key.key_id, signature, muchLater))).toMatchObject({ reason: 'gpg_invalid_token_signature' });
  });

  test('an unknown key id is not found', async () => {
    const ada = await givenUser(ctx.identity, 'ada');
    expect(await failureOf(verifyGpgKey(ctx, callerOf(ada), ada.id, 'ABCDEF0123456789', 'sig'))).toMatchObject({ kind: 'not_found' });
    expect(await failureOf(verifyGpgKey(ctx, callerOf(ada), ada.id, '', 'sig'))).toMatchObject({ kind: 'not_found' });
  });
});

describe('verifying commit signatures', () => {
  const payload = new TextEncoder().encode('tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor Ada <ada@example.com> 1700000000 +0000\ncommitter Ada <ada@example.com> 1700000000 +0000\n\nInitial commit\n');

  test('a commit signed with the committer\'s stored key is verified, naming the user and key', async () => {
    const ada = await givenUser(ctx.identity, 'ada');
    const { publicKey, privateKey } = await keyPair('ada@example.com');
    const key = await addGpgKey(ctx, callerOf(ada), ada.id, publicKey, '');
    const result = await verifyCommitSignature(ctx, 'Ada@Example.com', await signDetached(privateKey, payload), payload);
    expect(result).toMatchObject({ verified: true, key_id: key.key_id, signer_email: 'ada@example.com', reason: `ada / ${key.key_id}` });
    expect(result.signer?.id).toBe(ada.id);
  });

  test('a tampered payload is not verified', async () => {
    const ada = await givenUser(ctx.identity, 'ada');
    const { publicKey, privateKey } = await keyPair('ada@example.com');
    await addGpgKey(ctx, callerOf(ada), ada.id, publicKey, '');
    const signature = await signDetached(privateKey, payload);
    const tampered = new Uint8Array([...payload, 0x20]);
    expect(await verifyCommitSignature(ctx, 'ada@example.com', signature, tampered)).toMatchObject({ verified: false, reason: 'gpg.error.no_gpg_keys_found' });
  });

  test('a key that does not list the committer e-mail does not vouch for it unless verified', async () => {
    const ada = await givenUser(ctx.identity, 'ada');
    await addEmails(ctx.identity, callerOf(ada), ada.id, ['work@example.org']);
    const { publicKey, privateKey } = await keyPair('ada@example.com');
    await addGpgKey(ctx, callerOf(ada), ada.id, publicKey, '');
    const signature = await signDetached(privateKey, payload);
    expect((await verifyCommitSignature(ctx, 'work@example.org', signature, payload)).verified).toBe(false);
  });

  test('a signature by someone else\'s key, or for an unknown committer, is not verified', async () => {
    const ada = await givenUser(ctx.identity, 'ada');
    const mallory = await keyPair('ada@example.com');
    await addGpgKey(ctx, callerOf(ada), ada.id, (await keyPair('ada@example.com')).publicKey, '');
    const signature = await signDetached(mallory.privateKey, payload);
    expect((await verifyCommitSignature(ctx, 'ada@example.com', signature, payload)).verified).toBe(false);
    expect(await verifyCommitSignature(ctx, 'nobody@example.com', signature, payload)).toMatchObject({ verified: false, reason: 'gpg.error.no_committer_account' });
    expect(await verifyCommitSignature(ctx, 'ada@example.com', 'garbage', payload)).toMatchObject({ verified: false, reason: 'gpg.error.extract_sign' });
  });

  test('an administrator may read keys of any user', async () => {
    const ada = await givenUser(ctx.identity, 'ada');
    const key = await addGpgKey(ctx, callerOf(ada), ada.id, (await keyPair('ada@example.com')).publicKey, '');
    expect((await getGpgKey(ctx, SYSTEM, ada.id, key.id)).id).toBe(key.id);
  });
});
