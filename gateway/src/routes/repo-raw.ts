// Raw files (routers/api/v1/repo/file.go GetRawFile, GetRawFileOrLFS) and the web raw paths
// Gitea's download_url points at: `{ROOT_URL}{owner}/{repo}/raw/branch|tag|commit/{ref}/{path}`.
// File bytes are bulk: after one ResolveRepository call (404 for a repository the caller
// cannot see) the gateway streams them from the repository service's HTTP side channel
// with a signed grant, never through gRPC (DESIGN.md §3). The side channel resolves the ref,
// sniffs the type and sets Gitea's headers; this route passes them on.
import { notFound } from '@anvil/kit';
import type { Route, RouteContext } from '../http/route.js';
import { repoRef } from './repo-context.js';
import { repositoryGrant, sideChannelPath, streamFromRepository } from './side-channel.js';

const PASSED_HEADERS = [
  'content-type', 'content-length', 'content-disposition', 'content-security-policy', 'x-content-type-options',
  'access-control-expose-headers', 'cache-control', 'etag', 'last-modified', 'x-gitea-object-type',
];
// Conditional requests reach the side channel, which answers 304 for an unchanged blob.
const FORWARDED_HEADERS = ['if-none-match', 'if-modified-since'];

type RawKind = 'api' | 'branch' | 'tag' | 'commit';

const fileNotFound = () => notFound('The target couldn\'t be found.', 'file_not_found');

// A file up to this size is answered whole (not streamed), so the gateway's answer cache can
// keep it like the contents JSON that carries the same bytes; bigger ones stream.
const BUFFERED_RAW_BYTES = 256 * 1024;

async function serveRaw(ctx: RouteContext, kind: RawKind, path: string, ref: string) {
  // The API routes come resolved by their guard; the web raw paths resolve here.
  const access = ctx.repository ?? await ctx.deps.services.repository.ResolveRepository(repoRef(ctx), { caller: ctx.caller });
  // An empty repository has no commit to read a file from (Gitea: 404).
  if (access.repository!.empty) throw fileNotFound();
  return streamFromRepository(ctx, sideChannelPath(access, `raw?${new URLSearchParams({ kind, path, ref })}`), {
    grant: repositoryGrant(ctx, access),
    passStatuses: [200, 304],
    passHeaders: PASSED_HEADERS,
    forwardHeaders: FORWARDED_HEADERS,
    onRefused: (status) => (status === 404 ? fileNotFound() : new Error(`raw file failed upstream with status ${status}`)),
    bufferUpTo: BUFFERED_RAW_BYTES,
  });
}

/** `raw/{ref}/{path}` or `raw/{path}` with an optional `ref` query (media serves the same: no LFS). */
const getRawFile: Route['handle'] = async (ctx) => {
  const ref = typeof ctx.query.ref === 'string' ? ctx.query.ref.trim() : '';
  return serveRaw(ctx, 'api', ctx.splat('filepath'), ref);
};

const WEB_KINDS = new Set<RawKind>(['branch', 'tag', 'commit']);

/** `raw/branch/{branch}/{path}`, `raw/tag/{tag}/{path}`, `raw/commit/{sha}/{path}`; else the API's guess. */
const getWebRawFile: Route['handle'] = async (ctx) => {
  const [first, ...rest] = ctx.splat('rest').split('/');
  if (WEB_KINDS.has(first as RawKind)) return serveRaw(ctx, first as RawKind, rest.join('/'), '');
  return serveRaw(ctx, 'api', [first, ...rest].join('/'), '');
};

export const repoRawRoutes: Route[] = [
  { method: 'GET', path: '/repos/:owner/:repo/raw/*filepath', operationId: 'repoGetRawFile', access: 'public', scopes: ['repository'], repoAccess: 'read', handle: getRawFile },
  // Anvil stores no LFS objects: an LFS pointer is served as the blob it is.
  { method: 'GET', path: '/repos/:owner/:repo/media/*filepath', operationId: 'repoGetRawFileOrLFS', access: 'public', scopes: ['repository'], repoAccess: 'read', handle: getRawFile },
];

/** `{ROOT_URL}{owner}/{repo}/raw/...`, where Gitea's contents download_url points. */
export const webRawRoutes: Route[] = [
  { method: 'GET', path: '/:owner/:repo/raw/*rest', operationId: 'repoGetRawFile', access: 'public', scopes: ['repository'], handle: getWebRawFile },
];
