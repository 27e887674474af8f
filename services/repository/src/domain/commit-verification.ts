// Commit signatures (Gitea's asymkey_service.ParseCommitWithSignature, as the API shows it in
// `verification` and as require_signed_commits enforces it): an unsigned commit is
// `gpg.error.not_signed_commit` without asking anyone; signed ones are checked by identity
// against the committer's keys, a whole page or push in one call.
import type { IdentityUser, RawCommit } from './commits.js';

export interface SignedCommit {
  committerEmail: string;
  signature: string;
  payload: Buffer;
}

export interface SignatureCheck {
  verified: boolean;
  /** "<login> / <key id>" when verified, else a gpg.error.* message key. */
  reason: string;
  signer?: IdentityUser;
}

/** identity's GpgKeyService.VerifyCommitSignatures: one answer per commit, in order. */
export interface SignatureVerifier {
  verify(commits: readonly SignedCommit[]): Promise<SignatureCheck[]>;
}

/** Gitea's PayloadCommitVerification. */
export interface CommitVerification extends SignatureCheck {
  signature: string;
  payload: string;
}

export const NOT_SIGNED = 'gpg.error.not_signed_commit';

/** Most signatures one identity call carries. */
const BATCH = 500;

async function checkSigned(verifier: SignatureVerifier, signed: SignedCommit[]): Promise<SignatureCheck[]> {
  const checks: SignatureCheck[] = [];
  for (let i = 0; i < signed.length; i += BATCH) checks.push(...(await verifier.verify(signed.slice(i, i + BATCH))));
  return checks;
}

/** The verification of each commit, in order. */
export async function verifyCommits(verifier: SignatureVerifier, commits: readonly RawCommit[]): Promise<CommitVerification[]> {
  const signed = commits.filter((c) => c.signature);
  const checks = signed.length ? await checkSigned(verifier, signed.map((c) => ({
    committerEmail: c.committer.email, signature: c.signature!.signature, payload: c.signature!.payload,
  }))) : [];
  const bySha = new Map(signed.map((c, i) => [c.sha, checks[i]]));
  return commits.map((c) => {
    const check = bySha.get(c.sha);
    if (!c.signature || !check) return { verified: false, reason: NOT_SIGNED, signature: '', payload: '' };
    return { ...check, signature: c.signature.signature, payload: c.signature.payload.toString('utf8') };
  });
}

/** The first commit (in the order given) that is unsigned or whose signature does not verify. */
export async function firstUnverified(verifier: SignatureVerifier, commits: readonly RawCommit[]): Promise<string | undefined> {
  // Only the signed commits before the first unsigned one can be refused earlier than it.
  const cut = commits.findIndex((c) => !c.signature);
  const signed = cut < 0 ? commits : commits.slice(0, cut);
  const checks = signed.length ? await checkSigned(verifier, signed.map((c) => ({
    committerEmail: c.committer.email, signature: c.signature!.signature, payload: c.signature!.payload,
  }))) : [];
  const failed = signed.findIndex((_, i) => !checks[i]?.verified);
  return failed >= 0 ? signed[failed].sha : commits[cut]?.sha;
}
