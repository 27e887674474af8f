// Integration test: GpgKeyService over real gRPC and PostgreSQL. The repository service's
// view: a commit signed with a key its committer added is verified through the RPC.
// Each run gets a database of its own, dropped afterwards.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as openpgp from 'openpgp';
import { DomainError, SYSTEM, type Caller, type ServiceClient } from '@anvil/kit';
import { loadAnvilGrpc, type identity } from '@anvil/proto';
import { createUser, deleteUser } from '../src/domain/accounts.js';
import type { Identity } from '../src/domain/context.js';
import { gpgKeyGrpcService } from '../src/grpc/gpg-key-service.js';
import type { IdentityDb } from '../src/store/db.js';
import { gpgKeyStore } from '../src/store/gpg-key-store.js';
import { identityStore } from '../src/store/identity-store.js';
import { FakeHasher, TEST_SETTINGS } from './support/memory-store.js';
import { userInput } from './support/fixtures.js';
import { identityTestbed, type IdentityTestbed } from './support/testbed.js';

let tb: IdentityTestbed;
let db: IdentityDb;
let identityCtx: Identity;
let client: ServiceClient<identity.GpgKeyServiceClient>;

beforeAll(async () => {
  tb = await identityTestbed('gpg');
  db = tb.db;
  identityCtx = { store: identityStore(db), hasher: new FakeHasher(), settings: TEST_SETTINGS };
  const grpc = await tb.serve([gpgKeyGrpcService({ identity: identityCtx, keys: gpgKeyStore(db) })]);
  client = grpc.client<identity.GpgKeyServiceClient>(loadAnvilGrpc().anvil.identity.v1.GpgKeyService);
}, 30_000);

afterAll(() => tb?.close());

let serial = 0;
async function newUser(): Promise<{ id: number; login: string; email: string; caller: Caller }> {
  serial += 1;
  const login = `gpguser${serial}`;
  const user = await createUser(identityCtx, SYSTEM, userInput(login));
  return { id: user.id, login, email: user.email, caller: { userId: user.id, login, isAdmin: false, restricted: false, scopes: ['all'] } };
}

async function keyPair(email: string) {
  return openpgp.generateKey({ userIDs: [{ email }], format: 'armored' });
}

async function signDetached(privateKey: string, payload: Uint8Array): Promise<string> {
  return openpgp.sign({
    message: await openpgp.createMessage({ binary: payload }),
    signingKeys: await openpgp.readPrivateKey({ armoredKey: privateKey }),
    detached: true,
  }) as Promise<string>;
}

const payload = Buffer.from('tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\ncommitter Someone <x@example.com> 1700000000 +0000\n\nsigned\n');

describe('GpgKeyService', () => {
  it('stores a key with its subkey and lists, gets and deletes it', async () => {
    const ada = await newUser();
    const { publicKey } = await keyPair(ada.email);
    const added = await client.AddGpgKey({ user_id: ada.id, armored_public_key: publicKey }, { caller: ada.caller });
    expect(added.subkeys).toHaveLength(1);
    expect(added.subkeys[0]!.primary_key_id).toBe(added.key_id);
    expect(added.emails).toEqual([{ email: ada.email, verified: true }]);

    const page = await client.ListGpgKeys({ login: ada.login.toUpperCase(), page: { page: 1, limit: 10 } }, { caller: ada.caller });
    expect(page.total).toBe(1);
    expect(page.owner?.id).toBe(ada.id);
    expect(page.keys[0]!.subkeys.map((s) => s.key_id)).toEqual(added.subkeys.map((s) => s.key_id));

    expect((await client.GetGpgKey({ user_id: ada.id, id: added.id }, { caller: ada.caller })).key_id).toBe(added.key_id);
    await client.DeleteGpgKey({ user_id: ada.id, id: added.id }, { caller: ada.caller });
    expect((await client.ListGpgKeys({ user_id: ada.id }, { caller: ada.caller })).total).toBe(0);
    // The subkey went with it: the same key can be added again.
    await client.AddGpgKey({ user_id: ada.id, armored_public_key: publicKey }, { caller: ada.caller });
  });

  it('lets exactly one of two concurrent adds of the same key win', async () => {
    const ada = await newUser();
    const { publicKey } = await keyPair(ada.email);
    const results = await Promise.allSettled([1, 2, 3].map(() => client.AddGpgKey({ user_id: ada.id, armored_public_key: publicKey }, { caller: ada.caller })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) {
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ kind: 'invalid', reason: 'gpg_key_id_used' });
    }
  });

  it('verifies a commit signature made with the committer\'s key, and not after the user is deleted', async () => {
    const ada = await newUser();
    const { publicKey, privateKey } = await keyPair(ada.email);
    const key = await client.AddGpgKey({ user_id: ada.id, armored_public_key: publicKey }, { caller: ada.caller });
    const signature = await signDetached(privateKey, payload);

    const result = await client.VerifyCommitSignature({ committer_email: ada.email, armored_signature: signature, payload }, { caller: SYSTEM });
    expect(result).toMatchObject({ verified: true, key_id: key.key_id, signer_email: ada.email, reason: `${ada.login} / ${key.key_id}` });
    expect(result.signer?.login).toBe(ada.login);

    const bad = await client.VerifyCommitSignature({ committer_email: ada.email, armored_signature: signature, payload: Buffer.from('other') }, { caller: SYSTEM });
    expect(bad.verified).toBe(false);

    await deleteUser(identityCtx, SYSTEM, ada.login);
    expect(await db.gpgKey.count({ where: { owner_id: BigInt(ada.id) } })).toBe(0);
    const gone = await client.VerifyCommitSignature({ committer_email: ada.email, armored_signature: signature, payload }, { caller: SYSTEM });
    expect(gone).toMatchObject({ verified: false, reason: 'gpg.error.no_committer_account' });
  });

  it('answers a bad key with an invalid-argument error, never an internal one', async () => {
    const ada = await newUser();
    const err = await client.AddGpgKey({ user_id: ada.id, armored_public_key: 'garbage' }, { caller: ada.caller }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ kind: 'invalid', reason: 'gpg_key_parsing' });
  });
});
