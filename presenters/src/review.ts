// Pull request reviews as Gitea's JSON (services/convert/pull_review.go ToPullReview).
import type { Caller } from '@anvil/kit';
import type { collaboration, identity } from '@anvil/proto';
import { repoUrls } from './repo-urls.js';
import { formatTime } from './time.js';
import { presentTeam } from './team.js';
import { presentUser } from './user.js';

export function presentReview(r: collaboration.Review, repo: { owner: string; name: string }, caller: Caller, rootUrl: string) {
  const urls = repoUrls(rootUrl, repo.owner, repo.name);
  const pullUrl = `${urls.html}/pulls/${r.pull_index}`;
  return {
    id: r.id,
    user: r.reviewer ? presentUser(r.reviewer as identity.User, caller, rootUrl) : null,
    team: r.team ? presentTeam(r.team, rootUrl) : null,
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

/** A review's comment on a line (services/convert/pull_review.go ToPullReviewCommentList). */
export function presentReviewComment(c: collaboration.ReviewComment, repo: { owner: string; name: string }, caller: Caller, rootUrl: string) {
  const urls = repoUrls(rootUrl, repo.owner, repo.name);
  const pullUrl = `${urls.html}/pulls/${c.pull_index}`;
  const line = Number(c.line);
  return {
    id: c.id,
    body: c.body,
    user: c.user ? presentUser(c.user as identity.User, caller, rootUrl) : null,
    resolver: null,
    pull_request_review_id: c.review_id,
    created_at: formatTime(c.created_at!),
    updated_at: formatTime(c.updated_at!),
    path: c.path,
    commit_id: c.commit_id,
    original_commit_id: c.original_commit_id,
    diff_hunk: c.diff_hunk,
    // Gitea: a new-side line is `position`, an old-side one `original_position`, the other 0.
    position: line > 0 ? line : 0,
    original_position: line < 0 ? -line : 0,
    html_url: `${pullUrl}#issuecomment-${c.id}`,
    pull_request_url: pullUrl,
  };
}
