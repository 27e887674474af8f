// Commit statuses as Gitea's JSON (services/convert/status.go ToCommitStatus, ToCombinedStatus).
import { ANONYMOUS, type Caller } from '@anvil/kit';
import type { repository } from '@anvil/proto';
import { repoUrls } from './repo-urls.js';
import { presentRepository } from './repository.js';
import { formatTime } from './time.js';
import { presentUser } from './user.js';

/** `{ROOT_URL}api/v1/repos/{owner}/{repo}`, Gitea's Repository.APIURL. */
export function repoApiUrl(rootUrl: string, repo: { owner: string; name: string }): string {
  return repoUrls(rootUrl, repo.owner, repo.name).api;
}

/**
 * The status's index is its `id`, and its state goes out as `status` (Gitea's JSON names).
 * Gitea presents the creator as nobody in particular sees them (ToUser with no doer), so the
 * e-mail is the placeholder whoever asks.
 */
export function presentCommitStatus(status: repository.CommitStatus, repoUrl: string, rootUrl: string) {
  return {
    id: status.index,
    status: status.state,
    target_url: status.target_url,
    description: status.description,
    url: `${repoUrl}/statuses/${encodeURIComponent(status.sha)}`,
    context: status.context,
    ...(status.creator ? { creator: presentUser(status.creator, ANONYMOUS, rootUrl) } : {}),
    created_at: formatTime(status.created_at),
    updated_at: formatTime(status.updated_at),
  };
}

/**
 * Gitea answers a commit without statuses with an all-zero object (`"state": ""`, null
 * repository), which its own document does not allow; Anvil fills it in as for any commit,
 * with state "pending" (GitHub's rule for no statuses, and what Gitea's Combine gives).
 */
export function presentCombinedStatus(combined: repository.CombinedStatus, caller: Caller, rootUrl: string) {
  const access = combined.repository!;
  const repoUrl = repoApiUrl(rootUrl, { owner: access.owner!.login, name: access.repository!.name });
  const commitUrl = `${repoUrl}/commits/${encodeURIComponent(combined.sha)}`;
  return {
    state: combined.state,
    sha: combined.sha,
    total_count: combined.statuses.length,
    statuses: combined.statuses.map((s) => presentCommitStatus(s, repoUrl, rootUrl)),
    repository: presentRepository(access, access.owner!, caller, rootUrl),
    commit_url: commitUrl,
    url: `${commitUrl}/status`,
  };
}
