// anvil.repository.v1.CommitService: decode the request, call the commit domain, encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import {
  commitDiff, compareCommits, getCommit, listCommits, type CommitDeps, type CommitDetails, type DetailedCommit, type RepositoryName,
} from '../domain/commits.js';
import { readWithScope, type ReadAccessDeps } from './read-access.js';
import { refOf } from './requests.js';

export const COMMIT_SERVICE_NAME = 'anvil.repository.v1.CommitService';

const detailsOf = (d?: repository.CommitDetails | null): CommitDetails => ({ stat: !!d?.stat, verification: !!d?.verification, files: !!d?.files });

export function commitMessage(c: DetailedCommit, repo?: RepositoryName): repository.CommitInput {
  return {
    repository: repo,
    sha: c.sha, tree_sha: c.treeSha, parents: c.parents, author: c.author, committer: c.committer, message: c.message,
    author_user: c.authorUser ?? null,
    committer_user: c.committerUser ?? null,
    verification: c.verification ? {
      verified: c.verification.verified, reason: c.verification.reason, signature: c.verification.signature,
      payload: c.verification.payload, signer: c.verification.signer ?? null,
    } : null,
    has_files: c.files !== undefined, files: c.files ?? [],
    has_stats: c.stats !== undefined, stats: c.stats ?? null,
  };
}

type ReadDeps = CommitDeps & ReadAccessDeps;

export function commitService(deps: ReadDeps): ServiceImplementation<repository.CommitServiceHandlers> {
  return {
    async ListCommits(request, { caller, repository: scope }) {
      const ref = refOf(request);
      const { commits, total, limit, repository: repo } = await readWithScope(deps, scope, ref, caller, (known) => listCommits(deps, ref.owner, ref.name, caller, {
        sha: request.sha, path: request.path, not: request.not, since: request.since, until: request.until,
        page: request.page, limit: request.limit, details: detailsOf(request.details), summaryOnly: request.summary_only,
      }, known));
      return { commits: commits.map((c) => commitMessage(c)), total, limit, repository: repo };
    },
    async GetCommit(request, { caller, repository: scope }) {
      const ref = refOf(request);
      const { commit, repository: repo } = await readWithScope(deps, scope, ref, caller, (known) => getCommit(deps, ref.owner, ref.name, caller, request.sha, detailsOf(request.details), known));
      return commitMessage(commit, repo);
    },
    async GetCommitDiff(request, { caller }) {
      const ref = refOf(request);
      return { text: await commitDiff(deps, ref.owner, ref.name, caller, request.sha, request.diff_type) };
    },
    async CompareCommits(request, { caller }) {
      const ref = refOf(request);
      const { commits, repository: repo } = await compareCommits(deps, ref.owner, ref.name, caller, request.base, request.head, detailsOf(request.details));
      return { commits: commits.map((c) => commitMessage(c)), repository: repo };
    },
  };
}

export function commitGrpcService(deps: ReadDeps) {
  return {
    name: COMMIT_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.repository.v1.CommitService.service,
    implementation: commitService(deps),
  };
}
