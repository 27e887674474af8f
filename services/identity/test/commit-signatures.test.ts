// Verifying a batch of commit signatures (a page of commits, a push's new commits): each
// answer is the one a single verification gives, in order, and a committer's keys are read
// once per batch. Keys and signatures are made here by openpgp itself.
import { beforeEach, describe, expect, jest, test } from '@jest/globals';
import * as openpgp from 'openpgp';
import { addGpgKey, type GpgKeys } from '../src/domain/gpg-keys.js';
import { verifyCommitSignatures } from '../src/domain/gpg-keys-signature.js';
import { callerOf, givenUser } from './support/fixtures.js';
import { memoryIdentity } from './support/memory-store.js';
import { MemoryGpgKeyStore } from './support/memory-gpg-key-store.js';

jest.setTimeout(30_000);

const keyPair = (email: string) => openpgp.generateKey({ userIDs: [{ name: 'Test Person', email }], format: 'armored' });

async function signed(privateKey: string, text: string) {
  const payload = new TextEncoder().encode(text);
  const signature = await openpgp.sign({
    message: await openpgp.createMessage({ binary: payload }),
    signingKeys: await openpgp.readPrivateKey({ armoredKey: privateKey }),
    detached: true,
  }) as string;
  return { payload, signature };
}

let ctx: GpgKeys;
beforeEach(() => {
  ctx = { identity: memoryIdentity(), keys: new MemoryGpgKeyStore() };
});

describe('verifying many commit signatures at once', () => {
  test('answers each in order with Gitea\'s reasons, reading a committer\'s keys once', async () => {
    const ada = await givenUser(ctx.identity, 'ada');
    const mine = await keyPair('ada@example.com');
    const stranger = await keyPair('ada@example.com');
    await addGpgKey(ctx, callerOf(ada), ada.id, mine.publicKey, '');
    const keys = ctx.keys as MemoryGpgKeyStore;
    const reads = jest.spyOn(keys, 'gpgKeysOf');

    const good = await signed(mine.privateKey, 'commit one');
    const alsoGood = await signed(mine.privateKey, 'commit two');
    const bad = await signed(stranger.privateKey, 'commit three');
    const results = await verifyCommitSignatures(ctx, [
      { committerEmail: 'ada@example.com', armoredSignature: good.signature, payload: good.payload },
      { committerEmail: 'ADA@example.com', armoredSignature: alsoGood.signature, payload: alsoGood.payload },
      { committerEmail: 'ada@example.com', armoredSignature: bad.signature, payload: bad.payload },
      { committerEmail: 'nobody@example.com', armoredSignature: good.signature, payload: good.payload },
      { committerEmail: 'ada@example.com', armoredSignature: 'not a signature', payload: good.payload },
      { committerEmail: 'ada@example.com', armoredSignature: good.signature, payload: new TextEncoder().encode('tampered') },
    ]);

    const keyId = (await openpgp.readKey({ armoredKey: mine.publicKey })).getKeyID().toHex().toUpperCase();
    expect(results.map((r) => [r.verified, r.reason])).toEqual([
      [true, `ada / ${keyId}`],
      [true, `ada / ${keyId}`],
      [false, 'gpg.error.no_gpg_keys_found'],
      [false, 'gpg.error.no_committer_account'],
      [false, 'gpg.error.extract_sign'],
      [false, 'gpg.error.no_gpg_keys_found'],
    ]);
    expect(results[0].signer?.login).toBe('ada');
    expect(reads).toHaveBeenCalledTimes(1);
  });
});
