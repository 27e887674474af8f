// Pull request reviews as Gitea's JSON (services/convert/pull_review.go ToPullReview).
import type { Caller } from '@anvil/kit';
import type { collaboration, identity } from '@anvil/proto';
import { repoUrls } from './repo-urls.js';
import { formatTime } from './time.js';
import { presentUser } from './user.js';

export function presentReview(r: collaboration.Review, repo: { owner: string; name: string }, caller: Caller, rootUrl: string) {
  const urls = repoUrls(rootUrl, repo.owner, repo.name);
  const pullUrl = `${urls.html}/pulls/${r.pull_index}`;
  return {
    id: r.id,
    user: r.reviewer ? presentUser(r.reviewer as identity.User, caller, rootUrl) : null,
    team: null,
    state: r.state,
    body: r.body,
    commit_id: r.commit_id,
    stale: r.stale,
    official: r.official,
    dismissed: r.dismissed,
    comments_count: r.comments_count,
    submitted_at: formatTime(r.submitted_at!),
    updated_at: formatTime(r.updated_at!),
    html_url: `${pullUrl}#issuecomment-${r.id}`,
    pull_request_url: pullUrl,
  };
}
