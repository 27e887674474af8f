// Git objects as Gitea's JSON (services/repository/files GetBlobBySHA, GetTreeBySHA and
// routers/api/v1/repo/git_ref.go): GitBlobResponse, GitTreeResponse, Reference.
import type { repository } from '@anvil/proto';
import type { RepoUrls } from './repo-urls.js';

/** Each path segment escaped on its own, slashes kept (Gitea's util.PathEscapeSegments). */
export function pathEscapeSegments(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

export function presentBlob(blob: repository.GitBlob, urls: RepoUrls) {
  return {
    sha: blob.sha,
    url: `${urls.api}/git/blobs/${blob.sha}`,
    size: blob.size,
    // A blob over [api] DEFAULT_MAX_BLOB_SIZE comes without content and encoding, as in Gitea.
    ...(blob.has_content ? { encoding: 'base64', content: Buffer.from(blob.content).toString('base64') } : {}),
  };
}

export function presentTree(tree: repository.GitTreePage, urls: RepoUrls) {
  return {
    sha: tree.sha,
    url: `${urls.api}/git/trees/${tree.sha}`,
    tree: tree.entries.map((entry) => ({
      path: entry.path,
      mode: entry.mode,
      type: entry.type,
      size: entry.size,
      sha: entry.sha,
      // Submodules have no URL (GitHub's REST API, which Gitea follows here).
      url: entry.type === 'tree' ? `${urls.api}/git/trees/${entry.sha}` : entry.type === 'commit' ? '' : `${urls.api}/git/blobs/${entry.sha}`,
    })),
    truncated: tree.truncated,
    page: tree.page,
    total_count: tree.total_count,
  };
}

export function presentRef(ref: repository.GitRef, urls: RepoUrls) {
  return {
    ref: ref.ref,
    url: `${urls.api}/git/${pathEscapeSegments(ref.ref)}`,
    object: { type: ref.object_type, sha: ref.object_sha, url: `${urls.api}/git/${ref.object_type}s/${ref.object_sha}` },
  };
}
