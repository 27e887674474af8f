// GET /<owner>/<name>/archive/<ref>.<zip|tar.gz|bundle> on the HTTP side channel: archives
// are bulk bytes, so they are streamed from git to the gateway here, never through gRPC
// (DESIGN.md §3). The gateway resolved the caller's permission and signed a grant.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@anvil/kit';
import { archiveFileName, parseArchiveName, spawnArchive, spawnBundle, ARCHIVE_CONTENT_TYPES, type Archiver } from '../git/archive.js';
import type { RepositoryStorage } from '../git/storage.js';
import { resolveCommit } from '../git/refs.js';
import { authorize } from './grant.js';
import { fail, streamGitOutput } from './reply.js';

export const ARCHIVE_PATH = /^\/([^/]+)\/([^/]+)\/archive\/([^/]+)$/;

/**
 * As Gitea's ServeContent: an attachment with a plain and an RFC 6266/5987 file name. A
 * header carries Latin-1 only (Node refuses anything else, where Go would send raw UTF-8),
 * so the plain name has every character outside printable ASCII replaced by `_`; the
 * `filename*` one carries the real name, percent-encoded UTF-8 (a branch named "😀").
 */
export function attachmentDisposition(fileName: string): string {
  const plain = fileName.replace(/[^\x20-\x7e]|["\\]/gu, '_');
  // RFC 5987's attr-char also excludes ' ( ) *, which encodeURIComponent leaves as they are.
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${plain}"; filename*=UTF-8''${encoded}`;
}

export async function serveArchive(
  req: IncomingMessage, res: ServerResponse, match: RegExpExecArray,
  options: { secret: string; storage: RepositoryStorage; log: Logger },
): Promise<void> {
  const grant = authorize(req, res, { owner: match[1], name: match[2] }, 'read', options.secret);
  if (!grant) return;
  let archive: string;
  try {
    archive = decodeURIComponent(match[3]);
  } catch {
    return fail(res, 404, 'unknown archive');
  }
  const request = parseArchiveName(archive);
  if (!request) return fail(res, 404, 'unknown archive format');
  const gitDir = options.storage.pathOf(grant.owner, grant.name);
  // resolveCommit refuses anything that is not a valid ref name or object id.
  const commit = await resolveCommit(gitDir, request.ref);
  if (!commit) return fail(res, 404, 'ref not found');

  const archiver: Archiver = request.format === 'bundle'
    ? await spawnBundle(gitDir, commit)
    : spawnArchive(gitDir, grant.name, commit, request.format);
  const fileName = archiveFileName(grant.name, request);
  await streamGitOutput(res, archiver.child, {
    'content-type': ARCHIVE_CONTENT_TYPES[request.format],
    'content-disposition': attachmentDisposition(fileName),
  }, options.log, 'archiver');
  await archiver.cleanup();
}
