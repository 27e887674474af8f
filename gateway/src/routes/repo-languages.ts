// GET /repos/{owner}/{repo}/languages (routers/api/v1/repo/repo.go GetLanguages): bytes per
// language of the default branch. The language service resolves the repository and the
// caller's permission itself (one gRPC call).
import { ok, type Route } from '../http/route.js';
import { repoCall, repoRef } from './repo-context.js';

export const repoLanguageRoutes: Route[] = [
  {
    method: 'GET', path: '/repos/:owner/:repo/languages', operationId: 'repoGetLanguages', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    async handle(ctx) {
      const reply = await ctx.deps.services.languages.GetLanguages(repoRef(ctx), repoCall(ctx));
      // Gitea answers a Go map, whose JSON keys come out sorted.
      const sorted = [...reply.languages].sort((a, b) => (a.language < b.language ? -1 : a.language > b.language ? 1 : 0));
      return ok(Object.fromEntries(sorted.map((l) => [l.language, l.bytes])));
    },
  },
];
