// The repository service's calls to identity about commits: who owns the e-mail addresses of a
// page of commits (IdentityService.GetUsersByEmails) and whether signatures hold against the
// committers' keys (GpgKeyService.VerifyCommitSignatures). One call per kind per page or push.
import { createServiceClient, SYSTEM, type ServiceClient } from '@anvil/kit';
import { loadAnvilGrpc, type identity } from '@anvil/proto';
import type { CommitPeople, IdentityUser } from '../domain/commits.js';
import type { SignatureVerifier } from '../domain/commit-verification.js';

export interface IdentityCommitClients {
  people: CommitPeople;
  signatures: SignatureVerifier;
  close(): void;
}

export function identityCommitClients(address: string, secret: string): IdentityCommitClients {
  const { anvil } = loadAnvilGrpc();
  const users: ServiceClient<identity.IdentityServiceClient> = createServiceClient(anvil.identity.v1.IdentityService, address, secret);
  const keys: ServiceClient<identity.GpgKeyServiceClient> = createServiceClient(anvil.identity.v1.GpgKeyService, address, secret);
  // Nothing here depends on who asks: the service calls as itself.
  const options = { caller: SYSTEM };
  return {
    people: {
      async usersByEmails(emails) {
        const reply = await users.GetUsersByEmails({ emails: [...emails] }, options);
        return new Map<string, IdentityUser>(reply.users.flatMap((u) => (u.user ? [[u.email.toLowerCase(), u.user]] : [])));
      },
    },
    signatures: {
      async verify(commits) {
        const reply = await keys.VerifyCommitSignatures({
          signatures: commits.map((c) => ({ committer_email: c.committerEmail, armored_signature: c.signature, payload: c.payload })),
        }, options);
        return reply.verifications.map((v) => ({ verified: v.verified, reason: v.reason, signer: v.signer ?? undefined }));
      },
    },
    close() {
      users.close();
      keys.close();
    },
  };
}
