// Tags of a repository (routers/api/v1/repo/tag.go) and annotated tag objects
// (routers/api/v1/repo/git_ref.go GetAnnotatedTag). The tag service resolves the repository
// and the caller's permission itself, so each request is one gRPC call.
import { created, noContent, ok, type Route } from '../http/route.js';
import { presentAnnotatedTag, presentTag } from '@anvil/presenters/tag.js';
import { refWrite, repoCall, repoRef, repoUrlsOf } from './repo-context.js';

// Gitea's mustNotBeArchived is 423; a pull mirror's tags are its source's, and these routes
// declare 405 (not 403) for what the repository does not allow.
const TAG_WRITE_REFUSALS = { repo_archived: 423, repo_is_mirror: 405, repo_migrating: 405 };

export const repoTagRoutes: Route[] = [
  {
    method: 'GET', path: '/repos/:owner/:repo/tags', operationId: 'repoListTags', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    async handle(ctx) {
      const { page, limit } = ctx.page();
      const reply = await ctx.deps.services.tags.ListTags({ ref: repoRef(ctx), page: { page, limit } }, repoCall(ctx));
      const urls = repoUrlsOf(ctx, reply.repository);
      return ok(reply.tags.map((t) => presentTag(t, urls)), reply.total);
    },
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/tags/*tag', operationId: 'repoGetTag', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    async handle(ctx) {
      const tag = await ctx.deps.services.tags.GetTag({ ref: repoRef(ctx), name: ctx.splat('tag') }, repoCall(ctx));
      return ok(presentTag(tag, repoUrlsOf(ctx, tag.repository)));
    },
  },
  {
    // Gitea's handler answers 201 though its document declares 200 (contract/code-statuses.ts).
    method: 'POST', path: '/repos/:owner/:repo/tags', operationId: 'repoCreateTag', access: 'signed', scopes: ['repository'],
    repoAccess: 'write',
    statusOverrides: TAG_WRITE_REFUSALS,
    async handle(ctx) {
      const body = ctx.body as { tag_name?: string; target?: string; message?: string };
      const tag = await ctx.deps.services.tags.CreateTag({
        ref: repoRef(ctx), tag_name: body.tag_name ?? '', target: body.target ?? '', message: body.message ?? '',
      }, refWrite(ctx));
      return created(presentTag(tag, repoUrlsOf(ctx, tag.repository)));
    },
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/tags/*tag', operationId: 'repoDeleteTag', access: 'signed', scopes: ['repository'],
    repoAccess: 'write',
    statusOverrides: TAG_WRITE_REFUSALS,
    async handle(ctx) {
      await ctx.deps.services.tags.DeleteTag({ ref: repoRef(ctx), name: ctx.splat('tag') }, refWrite(ctx));
      return noContent();
    },
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/git/tags/:sha', operationId: 'GetAnnotatedTag', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    async handle(ctx) {
      const tag = await ctx.deps.services.tags.GetAnnotatedTag({ ref: repoRef(ctx), sha: ctx.params.sha }, repoCall(ctx));
      return ok(presentAnnotatedTag(tag, repoUrlsOf(ctx, tag.repository)));
    },
  },
];
