// GET /<owner>/<name>/archive/<ref>.<zip|tar.gz|bundle> on the HTTP side channel: archives
// are bulk bytes, so they are streamed from git to the gateway here, never through gRPC
// (DESIGN.md §3). The gateway resolved the caller's permission and signed a grant.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@anvil/kit';
import { archiveFileName, parseArchiveName, spawnArchive, spawnBundle, ARCHIVE_CONTENT_TYPES, type Archiver } from '../git/archive.js';
import type { RepositoryStorage } from '../git/storage.js';
import { resolveCommit } from '../git/refs.js';
import { authorize } from './grant.js';
import { fail } from './reply.js';

export const ARCHIVE_PATH = /^\/([^/]+)\/([^/]+)\/archive\/([^/]+)$/;

export async function serveArchive(
  req: IncomingMessage, res: ServerResponse, match: RegExpExecArray,
  options: { secret: string; storage: RepositoryStorage; log: Logger },
): Promise<void> {
  const grant = authorize(req, res, { owner: match[1], name: match[2] }, 'read', options.secret);
  if (!grant) return;
  const archive = decodeURIComponent(match[3]);
  const request = parseArchiveName(archive);
  if (!request) return fail(res, 404, 'unknown archive format');
  const gitDir = options.storage.pathOf(grant.owner, grant.name);
  // resolveCommit refuses anything that is not a valid ref name or object id.
  const commit = await resolveCommit(gitDir, request.ref);
  if (!commit) return fail(res, 404, 'ref not found');

  const archiver: Archiver = request.format === 'bundle'
    ? await spawnBundle(gitDir, commit)
    : spawnArchive(gitDir, grant.name, commit, request.format);
  const { child } = archiver;
  const stderr: Buffer[] = [];
  child.stderr!.on('data', (b: Buffer) => stderr.push(b));
  child.stdin!.end();
  const fileName = archiveFileName(grant.name, request);
  res.writeHead(200, {
    'content-type': ARCHIVE_CONTENT_TYPES[request.format],
    // As Gitea's ServeContent: an attachment with a plain and an RFC 5987 file name.
    'content-disposition': `attachment; filename="${fileName.replace(/["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
  });
  child.stdout!.pipe(res);
  // A client that goes away must not leave git running.
  res.on('close', () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  await new Promise<void>((resolve) => {
    child.on('error', (err) => {
      options.log.error({ err }, 'archiver failed to start');
      res.destroy();
      resolve();
    });
    child.on('close', (code) => {
      if (code !== 0) {
        options.log.warn({ code, stderr: Buffer.concat(stderr).toString().slice(0, 2000) }, 'archiver exited with an error');
        // The status is sent already: cut the stream so the client sees a broken download.
        res.destroy();
      }
      resolve();
    });
  });
  await archiver.cleanup();
}
