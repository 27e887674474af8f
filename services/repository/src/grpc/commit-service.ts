// anvil.repository.v1.CommitService: decode the request, call the commit domain, encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import {
  commitDiff, compareCommits, getCommit, listCommits, type CommitDeps, type CommitDetails, type DetailedCommit, type RepositoryName,
} from '../domain/commits.js';
import { repositoryRead, type ReadAccessDeps } from './read-access.js';
import { refOf, repositoryOf } from './requests.js';

export const COMMIT_SERVICE_NAME = 'anvil.repository.v1.CommitService';

type ReadDeps = CommitDeps & ReadAccessDeps;

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

export function commitService(deps: ReadDeps): ServiceImplementation<repository.CommitServiceHandlers> {
  return {
    async ListCommits(request, context) {
      const { commits, total, limit, repository: name } = await repositoryRead(deps, refOf(request), context, (repo) => listCommits(deps, repo, {
        sha: request.sha, path: request.path, not: request.not, since: request.since, until: request.until,
        page: request.page, limit: request.limit, details: detailsOf(request.details), summaryOnly: request.summary_only,
      }));
      return { commits: commits.map((c) => commitMessage(c)), total, limit, repository: name };
    },
    async GetCommit(request, context) {
      const { commit, repository: name } = await repositoryRead(deps, refOf(request), context, (repo) => getCommit(deps, repo, request.sha, detailsOf(request.details)));
      return commitMessage(commit, name);
    },
    async GetCommitDiff(request, context) {
      const repo = await repositoryOf(deps.store, refOf(request), context);
      return { text: await commitDiff(deps, repo, request.sha, request.diff_type) };
    },
    async CompareCommits(request, context) {
      const repo = await repositoryOf(deps.store, refOf(request), context);
      const { commits, repository: name } = await compareCommits(deps, repo, request.base, request.head, detailsOf(request.details));
      return { commits: commits.map((c) => commitMessage(c)), repository: name };
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
