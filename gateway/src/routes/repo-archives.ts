// GET /repos/{owner}/{repo}/archive/{ref}.zip|.tar.gz|.bundle (routers/api/v1/repo/file.go
// GetArchive). Archives are bulk bytes: after one ResolveRepository call (404 for a
// repository the caller cannot see) the gateway streams them from the repository
// service's HTTP side channel with a signed grant, never through gRPC (DESIGN.md §3).
import { notFound } from '@anvil/kit';
import type { Route } from '../http/route.js';
import { repoRef } from './repo-context.js';
import { repositoryGrant, sideChannelPath, streamFromRepository } from './side-channel.js';

const PASSED_HEADERS = ['content-type', 'content-disposition'];

const getArchive: Route['handle'] = async (ctx) => {
  const access = await ctx.deps.services.repository.ResolveRepository(repoRef(ctx), { caller: ctx.caller });
  return streamFromRepository(ctx, sideChannelPath(access, `archive/${encodeURIComponent(ctx.splat('archive'))}`), {
    grant: repositoryGrant(ctx, access),
    passStatuses: [200],
    passHeaders: PASSED_HEADERS,
    onRefused: (status) => (status === 404
      ? notFound('The target couldn\'t be found.', 'archive_not_found')
      : new Error(`archive failed upstream with status ${status}`)),
  });
};

export const repoArchiveRoutes: Route[] = [
  { method: 'GET', path: '/repos/:owner/:repo/archive/*archive', operationId: 'repoGetArchive', access: 'public', scopes: ['repository'], repoAccess: 'read', handle: getArchive },
];

/** `{ROOT_URL}{owner}/{repo}/archive/{ref}.{ext}`, where Tag JSON's zipball_url/tarball_url point. */
export const webArchiveRoutes: Route[] = [
  { method: 'GET', path: '/:owner/:repo/archive/*archive', operationId: 'repoGetArchive', access: 'public', scopes: ['repository'], handle: getArchive },
];
