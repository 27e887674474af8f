// Raw files (routers/api/v1/repo/file.go GetRawFile, GetRawFileOrLFS) and the web raw paths
// Gitea's download_url points at: `{ROOT_URL}{owner}/{repo}/raw/branch|tag|commit/{ref}/{path}`.
// File bytes are bulk: after one ResolveRepository call (404 for a repository the caller
// cannot see) the gateway streams them from the repository service's HTTP side channel
// with a signed grant, never through gRPC (DESIGN.md §3). The side channel resolves the ref,
// sniffs the type and sets Gitea's headers; this route passes them on.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { notFound, signPayload } from '@anvil/kit';
import type { Route, RouteContext } from '../http/route.js';
import { repoRef } from './repo-context.js';

const GIT_GRANT_HEADER = 'x-anvil-git-grant';
const GRANT_TTL_MS = 60_000;
const PASSED_HEADERS = [
  'content-type', 'content-length', 'content-disposition', 'content-security-policy', 'x-content-type-options',
  'access-control-expose-headers', 'cache-control', 'etag', 'last-modified', 'x-gitea-object-type',
];
// Conditional requests reach the side channel, which answers 304 for an unchanged blob.
const FORWARDED_HEADERS = ['if-none-match', 'if-modified-since'];

type RawKind = 'api' | 'branch' | 'tag' | 'commit';

function splat(ctx: RouteContext, name: string): string[] {
  const value = ctx.params[name] as unknown;
  return Array.isArray(value) ? value.map(String) : String(value ?? '').split('/');
}

function fetchUpstream(ctx: RouteContext, path: string, headers: Record<string, string>): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const upstream = httpRequest(`http://${ctx.deps.config.repositoryHttpAddress}${path}`, { method: 'GET', headers }, resolve);
    upstream.on('error', reject);
    // A caller who goes away stops cat-file upstream too.
    ctx.res.on('close', () => upstream.destroy());
    upstream.end();
  });
}

const fileNotFound = () => notFound('The target couldn\'t be found.', 'file_not_found');

async function serveRaw(ctx: RouteContext, kind: RawKind, path: string, ref: string) {
  const access = await ctx.deps.services.repository.ResolveRepository(repoRef(ctx), { caller: ctx.caller });
  const repo = access.repository!;
  // An empty repository has no commit to read a file from (Gitea: 404).
  if (repo.empty) throw fileNotFound();
  const secret = ctx.deps.config.settings.security.INTERNAL_TOKEN ?? '';
  const headers: Record<string, string> = {
    [GIT_GRANT_HEADER]: signPayload({
      caller: ctx.caller, repositoryId: repo.id, owner: repo.owner_login, name: repo.name, permission: access.permission, expires: Date.now() + GRANT_TTL_MS,
    }, secret),
  };
  for (const name of FORWARDED_HEADERS) {
    const value = ctx.req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const query = new URLSearchParams({ kind, path, ref });
  const upstream = await fetchUpstream(ctx, `/${encodeURIComponent(repo.owner_login)}/${encodeURIComponent(repo.name)}/raw?${query}`, headers);
  if (upstream.statusCode !== 200 && upstream.statusCode !== 304) {
    upstream.resume();
    if (upstream.statusCode === 404) throw fileNotFound();
    throw new Error(`raw file failed upstream with status ${upstream.statusCode}`);
  }
  const passed: Record<string, string> = {};
  for (const name of PASSED_HEADERS) {
    const value = upstream.headers[name];
    if (typeof value === 'string') passed[name] = value;
  }
  ctx.res.writeHead(upstream.statusCode, passed);
  // A broken cat-file cuts the stream, so the client sees a failed download, not a short file.
  upstream.on('error', () => ctx.res.destroy());
  upstream.on('aborted', () => ctx.res.destroy());
  upstream.pipe(ctx.res);
  return { status: upstream.statusCode, streamed: true };
}

/** `raw/{ref}/{path}` or `raw/{path}` with an optional `ref` query (media serves the same: no LFS). */
const getRawFile: Route['handle'] = async (ctx) => {
  const ref = typeof ctx.query.ref === 'string' ? ctx.query.ref.trim() : '';
  return serveRaw(ctx, 'api', splat(ctx, 'filepath').join('/'), ref);
};

const WEB_KINDS = new Set<RawKind>(['branch', 'tag', 'commit']);

/** `raw/branch/{branch}/{path}`, `raw/tag/{tag}/{path}`, `raw/commit/{sha}/{path}`; else the API's guess. */
const getWebRawFile: Route['handle'] = async (ctx) => {
  const [first, ...rest] = splat(ctx, 'rest');
  if (WEB_KINDS.has(first as RawKind)) return serveRaw(ctx, first as RawKind, rest.join('/'), '');
  return serveRaw(ctx, 'api', [first, ...rest].join('/'), '');
};

export const repoRawRoutes: Route[] = [
  { method: 'GET', path: '/repos/:owner/:repo/raw/*filepath', operationId: 'repoGetRawFile', access: 'public', scopes: ['repository'], handle: getRawFile },
  // Anvil stores no LFS objects: an LFS pointer is served as the blob it is.
  { method: 'GET', path: '/repos/:owner/:repo/media/*filepath', operationId: 'repoGetRawFileOrLFS', access: 'public', scopes: ['repository'], handle: getRawFile },
];

/** `{ROOT_URL}{owner}/{repo}/raw/...`, where Gitea's contents download_url points. */
export const webRawRoutes: Route[] = [
  { method: 'GET', path: '/:owner/:repo/raw/*rest', operationId: 'repoGetRawFile', access: 'public', scopes: ['repository'], handle: getWebRawFile },
];
