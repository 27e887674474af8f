// Commits as Gitea's JSON (services/convert/git_commit.go ToCommit, ToVerification).
import type { Caller } from '@anvil/kit';
import type { repository } from '@anvil/proto';
import type { RepoUrls } from './repo-urls.js';
import { presentUser } from './user.js';

/**
 * Gitea's ToVerification: signature and payload when signed, the signer as a PayloadUser
 * shown with the commit's committer e-mail (the address the key was matched by).
 */
export function presentVerification(v: repository.CommitVerification | null | undefined, committerEmail: string) {
  if (!v) return null;
  return {
    verified: v.verified,
    reason: v.reason,
    signature: v.signature,
    signer: v.signer ? { name: v.signer.login, email: committerEmail, username: v.signer.login } : null,
    payload: v.payload,
  };
}

const person = (p: repository.CommitSignature | null) => ({ name: p?.name ?? '', email: p?.email ?? '', date: p?.date ?? '' });

/** One commit; the author and committer users are shown as the caller may see them (ToUser with the doer). */
export function presentCommit(c: repository.Commit, urls: RepoUrls, caller: Caller, rootUrl: string) {
  const commitUrl = (sha: string) => `${urls.api}/git/commits/${sha}`;
  const created = c.committer?.date ?? '';
  return {
    url: commitUrl(c.sha),
    sha: c.sha,
    created,
    html_url: `${urls.html}/commit/${c.sha}`,
    commit: {
      url: commitUrl(c.sha),
      author: person(c.author),
      committer: person(c.committer),
      message: c.message,
      tree: { url: `${urls.api}/git/trees/${c.tree_sha}`, sha: c.tree_sha, created },
      verification: presentVerification(c.verification, c.committer?.email ?? ''),
    },
    author: c.author_user ? presentUser(c.author_user, caller, rootUrl) : null,
    committer: c.committer_user ? presentUser(c.committer_user, caller, rootUrl) : null,
    // Gitea fills only url and sha of a parent: created is Go's zero time.
    parents: c.parents.map((sha) => ({ url: commitUrl(sha), sha, created: '0001-01-01T00:00:00Z' })),
    files: c.has_files ? c.files.map((f) => ({ filename: f.filename, status: f.status })) : null,
    stats: c.has_stats && c.stats
      ? { total: Number(c.stats.additions) + Number(c.stats.deletions), additions: Number(c.stats.additions), deletions: Number(c.stats.deletions) }
      : null,
  };
}
