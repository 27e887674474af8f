// GET /<owner>/<name>/raw?kind=api|branch|tag|commit&path=<path>&ref=<ref> on the HTTP side
// channel: one file of a commit, streamed from `git cat-file blob` to the gateway, never
// buffered whole and never through gRPC (DESIGN.md §3). The gateway resolved the caller's
// permission and signed a grant; the location is resolved here as Gitea's RepoRefForAPI
// (API) or RepoRefByType (web /raw/{branch|tag|commit}/...) does, and served with Gitea's
// headers (ServeBlob): sniffed type, inline disposition, ETag = blob id, Last-Modified =
// the last commit that touched the file.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { Logger } from '@anvil/kit';
import { cleanTreePath, resolveLocation, type RawRefKind } from '../domain/git-objects.js';
import { lastChanged, lookupThroughCache, spawnBlob } from '../git/objects-git.js';
import type { RepositoryStorage } from '../git/storage.js';
import type { RefIndex } from '../git/ref-index.js';
import { authorize } from './grant.js';
import { fail, killWithClient } from './reply.js';
import { contentDisposition, contentSecurityPolicy, rawContentType, SNIFF_LENGTH } from './raw-headers.js';

export const RAW_PATH = /^\/([^/]+)\/([^/]+)\/raw$/;

const KINDS = new Set<RawRefKind>(['api', 'branch', 'tag', 'commit']);
// Gitea's [server] STATIC_CACHE_TIME (6h), as its ETag/time cache helpers send it.
const CACHE_CONTROL = 'private, max-age=21600';
// Files up to this size are read whole from the cat-file cache instead of a process of their own.
const CACHED_BLOB_LIMIT = 1 << 20;

/** Up to `size` bytes from the start of `stream` (fewer when it ends first); leaves it paused. */
function readHead(stream: Readable, size: number): Promise<{ head: Buffer; ended: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const finish = (ended: boolean) => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.pause();
      resolve({ head: Buffer.concat(chunks), ended });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= size) finish(false);
    };
    const onEnd = () => finish(true);
    const onError = (err: Error) => reject(err);
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}

function notModified(req: IncomingMessage, etag: string, lastModified?: Date): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  if (typeof ifNoneMatch === 'string' && ifNoneMatch.split(',').some((tag) => tag.trim() === etag)) return true;
  const since = req.headers['if-modified-since'];
  if (!lastModified || typeof since !== 'string') return false;
  const t = Date.parse(since);
  return Number.isFinite(t) && Math.floor(lastModified.getTime() / 1000) <= Math.floor(t / 1000);
}

export async function serveRaw(
  req: IncomingMessage, res: ServerResponse, match: RegExpExecArray, url: URL,
  options: { secret: string; storage: RepositoryStorage; log: Logger; refs?: RefIndex },
): Promise<void> {
  const grant = authorize(req, res, { owner: match[1], name: match[2] }, 'read', options.secret);
  if (!grant) return;
  const kind = url.searchParams.get('kind') as RawRefKind;
  if (!KINDS.has(kind)) return fail(res, 404, 'unknown ref kind');
  const gitDir = options.storage.pathOf(grant.owner, grant.name);

  const objects = options.storage.objects(gitDir);
  const lookupObjects = (dir: string, names: readonly string[]) => (options.refs ? options.refs.lookupObjects(dir, names) : lookupThroughCache(objects, names));
  const location = await resolveLocation({ lookupObjects }, gitDir, { kind, path: url.searchParams.get('path') ?? '', ref: url.searchParams.get('ref') ?? '' });
  const path = location && cleanTreePath(location.treePath);
  if (!location || !path) return fail(res, 404, 'file not found');
  const entry = (await objects.entriesAt(location.commit, [path])).get(path);
  // Directories and submodules have no bytes to serve (Gitea: 404).
  if (!entry || entry.type !== 'blob') return fail(res, 404, 'file not found');
  const changed = await options.storage.computed.get(gitDir, `changed:${location.commit}:${path}`, () => lastChanged(gitDir, location.commit, path));
  const lastModified = changed ? new Date(changed * 1000) : undefined;
  const etag = `"${entry.sha}"`;
  const cacheHeaders: Record<string, string> = { etag, 'cache-control': CACHE_CONTROL };
  if (lastModified) cacheHeaders['last-modified'] = lastModified.toUTCString();
  if (notModified(req, etag, lastModified)) {
    res.writeHead(304, cacheHeaders).end();
    return;
  }

  const fileName = path.slice(path.lastIndexOf('/') + 1);
  const headers = (contentType: string) => ({
    ...cacheHeaders,
    'content-type': contentType,
    'content-length': String(entry.size),
    'content-disposition': contentDisposition('inline', fileName),
    'access-control-expose-headers': 'Content-Disposition',
    'content-security-policy': contentSecurityPolicy(contentType),
    'x-content-type-options': 'nosniff',
    // Gitea's X-Gitea-Object-Type: file, or symlink for a link (served as its target path).
    'x-gitea-object-type': entry.mode === '120000' ? 'symlink' : 'file',
  });
  // A small file comes whole from the cat-file cache; a large one streams from its own process.
  if (entry.size <= CACHED_BLOB_LIMIT) {
    const bytes = await objects.blob(entry.sha);
    if (!bytes) return fail(res, 404, 'file not found');
    res.writeHead(200, headers(rawContentType(bytes.subarray(0, SNIFF_LENGTH), bytes.length < SNIFF_LENGTH))).end(bytes);
    return;
  }
  const child = spawnBlob(gitDir, entry.sha);
  child.stderr!.resume();
  child.stdin!.end();
  // A client that goes away must not leave git running.
  killWithClient(child, res);
  const exited = new Promise<number | null>((resolve) => {
    child.on('error', (err) => {
      options.log.error({ err }, 'cat-file failed to start');
      resolve(-1);
    });
    child.on('close', (code) => resolve(code));
  });
  let head: Buffer, ended: boolean;
  try {
    ({ head, ended } = await readHead(child.stdout!, SNIFF_LENGTH));
  } catch {
    return fail(res, 500, 'reading the blob failed');
  }
  res.writeHead(200, headers(rawContentType(head, ended)));
  res.write(head);
  if (ended) res.end();
  else child.stdout!.pipe(res);
  const code = await exited;
  // The status is sent already: a broken cat-file cuts the stream, so the client sees a
  // failed download rather than a short file.
  if (code !== 0) {
    options.log.warn({ code, blob: entry.sha }, 'cat-file exited with an error');
    res.destroy();
  }
}
