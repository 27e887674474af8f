// Tags as Gitea's JSON (services/convert: ToTag, ToCommitMeta, ToAnnotatedTag).
import type { repository } from '@anvil/proto';
import { presentVerification } from './commits.js';
import type { RepoUrls } from './repo-urls.js';
import { formatTime } from './time.js';

export function presentTag(tag: repository.Tag, urls: RepoUrls) {
  return {
    name: tag.name,
    message: tag.message.replace(/\n$/, ''),
    id: tag.id,
    // Gitea links the commit meta through the tag's own id (convert.ToCommitMeta).
    commit: { url: `${urls.api}/git/commits/${tag.id}`, sha: tag.commit_sha, created: formatTime(tag.created_at) },
    zipball_url: `${urls.html}/archive/${encodeURIComponent(tag.name)}.zip`,
    tarball_url: `${urls.html}/archive/${encodeURIComponent(tag.name)}.tar.gz`,
  };
}

export function presentAnnotatedTag(tag: repository.AnnotatedTag, urls: RepoUrls) {
  return {
    tag: tag.tag,
    sha: tag.sha,
    url: `${urls.api}/git/tags/${tag.sha}`,
    message: tag.message,
    tagger: { name: tag.tagger?.name ?? '', email: tag.tagger?.email ?? '', date: formatTime(tag.tagger?.when) },
    object: { type: tag.object_type, url: `${urls.api}/git/${tag.object_type}s/${tag.object_sha}`, sha: tag.object_sha },
    // The tagged commit's verification, as Gitea's ToAnnotatedTag shows it (not the tag's own signature).
    verification: presentVerification(tag.verification, tag.commit_committer_email)
      ?? { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', payload: '' },
  };
}
