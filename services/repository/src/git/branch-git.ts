// The domain's BranchGit port over the bare repositories and the branch plumbing.
import type { PushGitFacts } from '../domain/branch-protection.js';
import type { BranchGit } from '../domain/branches.js';
import type { SignatureVerifier } from '../domain/commit-verification.js';
import { firstUnverifiedCommit } from './commits.js';
import { changedFiles, isAncestor, listBranchHeads, renameRef, type ObjectEnv } from './branches.js';
import { resolveCommit } from './refs.js';
import { commitsBetween } from './refs.js';
import { RepositoryStorage, setHead } from './storage.js';
import type { RefIndex } from './ref-index.js';

/** Without identity's verifier no signature can be trusted: require_signed_commits then refuses every new commit. */
const TRUST_NO_SIGNATURE: SignatureVerifier = {
  verify: async (commits) => commits.map(() => ({ verified: false, reason: 'gpg.error.no_gpg_keys_found' })),
};

/**
 * Facts about a push's commits; `env` points git at a push's quarantined objects and
 * `signatures` checks commit signatures against the committers' keys (identity).
 */
export function pushGitFacts(gitDir: string, env: ObjectEnv = {}, signatures: SignatureVerifier = TRUST_NO_SIGNATURE): PushGitFacts {
  return {
    isAncestor: (a, b) => isAncestor(gitDir, a, b, env),
    changedFiles: (a, b) => changedFiles(gitDir, a, b, env),
    firstUnverifiedCommit: (a, b) => firstUnverifiedCommit(gitDir, a, b, signatures, env),
  };
}

/** Heads and resolution from the refs table when `refs` is given (ref-index.ts), else from git. */
export function branchGit(storage: RepositoryStorage, signatures: SignatureVerifier, refs?: RefIndex): BranchGit {
  return {
    heads: (owner, name, only) => (refs ? refs.branchHeads(storage.pathOf(owner, name), only) : listBranchHeads(storage.pathOf(owner, name), only)),
    headsWithRules: async (owner, name, userId, only) => refs?.branchesWithRules(storage.pathOf(owner, name), userId, only),
    resolve: (owner, name, revision) => (refs ? refs.resolveCommit(storage.pathOf(owner, name), revision) : resolveCommit(storage.pathOf(owner, name), revision)),
    updateRef: (owner, name, ref, newSha, oldSha) => storage.refUpdaters.update(storage.pathOf(owner, name), [{ ref, newSha, oldSha }]),
    renameRef: (owner, name, from, to, sha) => renameRef(storage.pathOf(owner, name), from, to, sha),
    facts: (owner, name) => pushGitFacts(storage.pathOf(owner, name), {}, signatures),
    setDefaultBranch: (owner, name, branch) => setHead(storage.pathOf(owner, name), branch),
    commitsBetween: (owner, name, after, exclude) => commitsBetween(storage.pathOf(owner, name), after, exclude, 100),
  };
}
