// GET /<owner>/<name>/archive/<ref>.<zip|tar.gz|bundle> on the HTTP side channel: archives
// are bulk bytes, so they are streamed from git to the gateway here, never through gRPC
// (DESIGN.md §3). The gateway resolved the caller's permission and signed a grant.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@anvil/kit';
import { atLeast } from '../domain/permission.js';
import { archiveFileName, parseArchiveName, spawnArchive, spawnBundle, ARCHIVE_CONTENT_TYPES, type Archiver } from '../git/archive.js';
import type { RepositoryStorage } from '../git/storage.js';
import { resolveCommit } from '../git/tags.js';
import { GIT_GRANT_HEADER, readGrant } from './grant.js';

export const ARCHIVE_PATH = /^\/([^/]+)\/([^/]+)\/archive\/([^/]+)$/;

function fail(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${message}\n`);
}

export async function serveArchive(
  req: IncomingMessage, res: ServerResponse, match: RegExpExecArray,
  options: { secret: string; storage: RepositoryStorage; log: Logger },
): Promise<void> {
  let owner: string, name: string, archive: string;
  try {
    [, owner, name, archive] = match.map((part) => decodeURIComponent(part));
  } catch {
    return fail(res, 404, 'not found');
  }
  const grant = readGrant(req.headers[GIT_GRANT_HEADER], options.secret);
  if (!grant || grant.owner.toLowerCase() !== owner.toLowerCase() || grant.name.toLowerCase() !== name.toLowerCase()) {
    return fail(res, 403, 'missing or invalid grant');
  }
  if (!atLeast(grant.permission, 'read')) return fail(res, 403, 'permission denied');
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
