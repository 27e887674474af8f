// anvil.identity.v1.GpgKeyService: decode the request, call the domain, encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type identity } from '@anvil/proto';
import { addGpgKey, deleteGpgKey, getGpgKey, gpgKeyToken, listGpgKeys, verifyGpgKey, type GpgKeys } from '../domain/gpg-keys.js';
import { verifyCommitSignature, verifyCommitSignatures, type CommitSignatureVerification } from '../domain/gpg-keys-signature.js';
import type { GpgKey, GpgKeyMaterial, GpgSubkey } from '../domain/gpg-keys-store.js';
import { timestamp, userMessage } from './messages.js';

export const GPG_KEY_SERVICE_NAME = 'anvil.identity.v1.GpgKeyService';

type DeclaredMethods<H> = { [K in keyof H as string extends K ? never : K]: H[K] };
export type GpgKeyServiceImplementation = ServiceImplementation<DeclaredMethods<identity.GpgKeyServiceHandlers>>;

function materialMessage(key: GpgKeyMaterial): identity.GpgKeyInput {
  return {
    key_id: key.key_id,
    public_key: key.content,
    can_sign: key.can_sign,
    can_encrypt_comms: key.can_encrypt_comms,
    can_encrypt_storage: key.can_encrypt_storage,
    can_certify: key.can_certify,
    created_at: timestamp(key.created_at),
    expires_at: key.expires_at ? timestamp(key.expires_at) : null,
  };
}

function subkeyMessage(owner: number, verified: boolean) {
  return (key: GpgSubkey): identity.GpgKeyInput => ({
    ...materialMessage(key), id: key.id, owner_id: owner, primary_key_id: key.primary_key_id, verified, emails: [], subkeys: [],
  });
}

/** Every address a key lists was activated when matched; Anvil's addresses stay activated. */
export function gpgKeyMessage(key: GpgKey): identity.GpgKeyInput {
  return {
    ...materialMessage(key),
    id: key.id,
    owner_id: key.owner_id,
    primary_key_id: '',
    verified: key.verified,
    emails: key.emails.map((email) => ({ email, verified: true })),
    subkeys: key.subkeys.map(subkeyMessage(key.owner_id, key.verified)),
  };
}

function verificationMessage(result: CommitSignatureVerification): identity.CommitSignatureVerificationInput {
  return {
    verified: result.verified,
    key_id: result.key_id,
    signer: result.signer ? userMessage(result.signer) : null,
    signer_email: result.signer_email,
    reason: result.reason,
  };
}

export function gpgKeyService(ctx: GpgKeys): GpgKeyServiceImplementation {
  return {
    async ListGpgKeys(request) {
      const owner = request.owner === 'login' ? { login: request.login ?? '' } : { id: Number(request.user_id ?? 0) };
      const page = await listGpgKeys(ctx, owner, request.page);
      return { keys: page.items.map(gpgKeyMessage), total: page.total, owner: userMessage(page.owner) };
    },
    async GetGpgKey(request, { caller }) {
      return gpgKeyMessage(await getGpgKey(ctx, caller, Number(request.user_id), Number(request.id)));
    },
    async AddGpgKey(request, { caller }) {
      return gpgKeyMessage(await addGpgKey(ctx, caller, Number(request.user_id), request.armored_public_key, request.armored_signature));
    },
    async DeleteGpgKey(request, { caller }) {
      await deleteGpgKey(ctx, caller, Number(request.user_id), Number(request.id));
      return {};
    },
    async GetGpgKeyToken(request, { caller }) {
      return { token: await gpgKeyToken(ctx, caller, Number(request.user_id)) };
    },
    async VerifyGpgKey(request, { caller }) {
      return gpgKeyMessage(await verifyGpgKey(ctx, caller, Number(request.user_id), request.key_id, request.armored_signature));
    },
    async VerifyCommitSignature(request) {
      return verificationMessage(await verifyCommitSignature(ctx, request.committer_email, request.armored_signature, new Uint8Array(request.payload)));
    },
    async VerifyCommitSignatures(request) {
      const results = await verifyCommitSignatures(ctx, request.signatures.map((s) => ({
        committerEmail: s.committer_email, armoredSignature: s.armored_signature, payload: new Uint8Array(s.payload),
      })));
      return { verifications: results.map(verificationMessage) };
    },
  };
}

export function gpgKeyGrpcService(ctx: GpgKeys) {
  return {
    name: GPG_KEY_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.identity.v1.GpgKeyService.service,
    implementation: gpgKeyService(ctx),
  };
}
