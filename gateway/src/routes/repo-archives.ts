// GET /repos/{owner}/{repo}/archive/{ref}.zip|.tar.gz|.bundle (routers/api/v1/repo/file.go
// GetArchive). Archives are bulk bytes: after one ResolveRepository call (404 for a
// repository the caller cannot see) the gateway streams them from the repository
// service's HTTP side channel with a signed grant, never through gRPC (DESIGN.md §3).
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { notFound, signPayload } from '@anvil/kit';
import type { Route, RouteContext } from '../http/route.js';
import { repoRef } from './repo-context.js';

const GIT_GRANT_HEADER = 'x-anvil-git-grant';
const GRANT_TTL_MS = 60_000;
const PASSED_HEADERS = ['content-type', 'content-disposition'];

function archiveParam(ctx: RouteContext): string {
  // Express 5 gives a splat as its segments.
  const value = ctx.params.archive as unknown;
  return Array.isArray(value) ? value.join('/') : String(value ?? '');
}

function fetchArchive(ctx: RouteContext, path: string, grant: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const upstream = httpRequest(`http://${ctx.deps.config.repositoryHttpAddress}${path}`, { method: 'GET', headers: { [GIT_GRANT_HEADER]: grant } }, resolve);
    upstream.on('error', reject);
    // A caller who goes away stops the archiver upstream too.
    ctx.res.on('close', () => upstream.destroy());
    upstream.end();
  });
}

const getArchive: Route['handle'] = async (ctx) => {
  const access = await ctx.deps.services.repository.ResolveRepository(repoRef(ctx), { caller: ctx.caller });
  const repo = access.repository!;
  const secret = ctx.deps.config.settings.security.INTERNAL_TOKEN ?? '';
  const grant = signPayload({
    caller: ctx.caller, repositoryId: repo.id, owner: repo.owner_login, name: repo.name, permission: access.permission, expires: Date.now() + GRANT_TTL_MS,
  }, secret);
  const path = `/${encodeURIComponent(repo.owner_login)}/${encodeURIComponent(repo.name)}/archive/${encodeURIComponent(archiveParam(ctx))}`;
  const upstream = await fetchArchive(ctx, path, grant);
  if (upstream.statusCode !== 200) {
    upstream.resume();
    if (upstream.statusCode === 404) throw notFound('The target couldn\'t be found.', 'archive_not_found');
    throw new Error(`archive failed upstream with status ${upstream.statusCode}`);
  }
  const headers: Record<string, string> = {};
  for (const name of PASSED_HEADERS) {
    const value = upstream.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  ctx.res.writeHead(200, headers);
  // A broken archiver cuts the stream, so the client sees a failed download, not a short file.
  upstream.on('error', () => ctx.res.destroy());
  upstream.on('aborted', () => ctx.res.destroy());
  upstream.pipe(ctx.res);
  return { status: 200, streamed: true };
};

export const repoArchiveRoutes: Route[] = [
  { method: 'GET', path: '/repos/:owner/:repo/archive/*archive', operationId: 'repoGetArchive', access: 'public', scopes: ['repository'], handle: getArchive },
];

/** `{ROOT_URL}{owner}/{repo}/archive/{ref}.{ext}`, where Tag JSON's zipball_url/tarball_url point. */
export const webArchiveRoutes: Route[] = [
  { method: 'GET', path: '/:owner/:repo/archive/*archive', operationId: 'repoGetArchive', access: 'public', scopes: ['repository'], handle: getArchive },
];
