// Files and commits of the contents API as Gitea's JSON (services/repository/files:
// content.go getFileContentsByEntryInternal, file.go GetFileCommitResponse). Absent optional
// fields are left out rather than sent as null: the contract types them as plain strings.
import type { repository } from '@anvil/proto';
import type { RepoUrls } from './repo-urls.js';
import { formatTime } from './time.js';

/** Go's url.PathEscape per segment (`/` kept): it leaves `$&+,:;=@` as they are. */
export function pathEscapeSegments(path: string): string {
  return path.split('/').map((part) => encodeURIComponent(part).replace(/%(24|26|2B|2C|3A|3B|3D|40)/g, (m) => decodeURIComponent(m))).join('/');
}

/** Go's url.QueryEscape: spaces as `+`, everything but [A-Za-z0-9-_.~] escaped. */
export function queryEscape(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%20/g, '+');
}

/** Gitea's RefName.RefWebLinkPath: `branch/main`, `tag/v1.0`, `commit/<sha>`. */
export function refWebLinkPath(at: repository.ResolvedRef): string {
  return at.kind === 'commit' ? `commit/${at.commit_sha}` : `${at.kind}/${pathEscapeSegments(at.name)}`;
}

const when = (ts: { seconds: number } | null | undefined) => (ts ? formatTime(ts) : undefined);

/** ContentsResponse for one entry at the ref it was read (or written) at. */
export function presentContent(entry: repository.ContentEntry, at: repository.ResolvedRef, urls: RepoUrls) {
  const escaped = pathEscapeSegments(entry.path);
  const self = `${urls.api}/contents/${escaped}?ref=${queryEscape(at.input)}`;
  const isBlob = entry.type === 'file' || entry.type === 'symlink';
  const html = entry.type === 'submodule' ? undefined : `${urls.html}/src/${refWebLinkPath(at)}/${escaped}`;
  const git = entry.type === 'submodule' ? undefined : `${urls.api}/git/blobs/${entry.sha}`;
  return {
    name: entry.name,
    path: entry.path,
    sha: entry.sha,
    last_commit_sha: entry.last_commit_sha || undefined,
    last_committer_date: entry.last_commit_sha ? when(entry.last_committer_date) : undefined,
    last_author_date: entry.last_commit_sha ? when(entry.last_author_date) : undefined,
    type: entry.type,
    size: entry.size,
    encoding: entry.has_content ? 'base64' : undefined,
    content: entry.has_content ? Buffer.from(entry.content).toString('base64') : undefined,
    target: entry.type === 'symlink' ? entry.target : undefined,
    url: self,
    html_url: html,
    git_url: git,
    download_url: isBlob ? `${urls.html}/raw/${refWebLinkPath(at)}/${escaped}` : undefined,
    submodule_git_url: entry.submodule_url || undefined,
    _links: { self, git, html },
  };
}

/** contents-ext adds the last commit's message on request. */
export function presentContentExt(entry: repository.ContentEntry, at: repository.ResolvedRef, urls: RepoUrls, withMessage: boolean) {
  const presented = presentContent(entry, at, urls);
  return withMessage && entry.last_commit_sha ? { ...presented, last_commit_message: entry.last_commit_message } : presented;
}

const commitUser = (who: repository.CommitIdentity | null | undefined) => ({ name: who?.name ?? '', email: who?.email ?? '', date: formatTime(who?.when) });

/** FileCommitResponse: CommitMeta (sha, url, created) plus the commit's people, tree and parents. */
export function presentFileCommit(commit: repository.FileCommit, urls: RepoUrls) {
  const zero = formatTime(null); // Gitea leaves CommitMeta.created at Go's zero time here
  return {
    url: `${urls.api}/git/commits/${commit.sha}`,
    sha: commit.sha,
    created: zero,
    html_url: `${urls.html}/commit/${commit.sha}`,
    author: commitUser(commit.author),
    committer: commitUser(commit.committer),
    parents: commit.parents.map((sha) => ({ url: `${urls.api}/git/commits/${sha}`, sha, created: zero })),
    message: commit.message,
    tree: { url: `${urls.api}/git/trees/${commit.tree_sha}`, sha: commit.tree_sha, created: zero },
  };
}

/** API-written commits are not signed (Gitea without a signing key says the same). */
export const UNSIGNED = { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' };

/** FilesResponse; a deleted path has no entry (Gitea sends null, which the contract does not admit). */
export function presentFilesResponse(reply: repository.ChangeFilesReply, urls: RepoUrls) {
  return {
    files: reply.files.filter((f) => f.present && f.entry).map((f) => presentContent(f.entry!, reply.at!, urls)),
    commit: presentFileCommit(reply.commit!, urls),
    verification: UNSIGNED,
  };
}

/** FileResponse (create, update) and FileDeleteResponse (content null) for a single-file write. */
export function presentFileResponse(reply: repository.ChangeFilesReply, urls: RepoUrls) {
  const first = reply.files[0];
  return {
    content: first?.present && first.entry ? presentContent(first.entry, reply.at!, urls) : null,
    commit: presentFileCommit(reply.commit!, urls),
    verification: UNSIGNED,
  };
}
