// Repository topics (routers/api/v1/repo/topic.go): read by anyone who can see the
// repository, changed by its admins, searched site-wide. The topic service resolves the
// repository and the caller's permission itself (one gRPC call).
import type { repository } from '@anvil/proto';
import { noContent, ok, type Reply, type Route } from '../http/route.js';
import { formatTime } from '@anvil/presenters/time.js';
import { repoCall, repoRef } from './repo-context.js';

/** Gitea's invalidTopicsError: 422 listing the refused names, or 204 when the edit was applied. */
function editReply(edit: repository.TopicEdit, message: string): Reply {
  if (!edit.invalid_topics.length) return noContent();
  return { status: 422, body: { invalidTopics: edit.invalid_topics, message } };
}

export const repoTopicRoutes: Route[] = [
  {
    method: 'GET', path: '/repos/:owner/:repo/topics', operationId: 'repoListTopics', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    async handle(ctx) {
      const { page, limit } = ctx.page();
      const reply = await ctx.deps.services.topics.ListTopics({ ref: repoRef(ctx), page: { page, limit } }, repoCall(ctx));
      return ok({ topics: reply.topics }, reply.total);
    },
  },
  {
    method: 'PUT', path: '/repos/:owner/:repo/topics', operationId: 'repoUpdateTopics', access: 'signed', scopes: ['repository'],
    repoAccess: 'admin',
    async handle(ctx) {
      const topics = (ctx.body as { topics?: string[] }).topics ?? [];
      return editReply(await ctx.deps.services.topics.ReplaceTopics({ ref: repoRef(ctx), topics }, repoCall(ctx)), 'Topic names are invalid');
    },
  },
  {
    method: 'PUT', path: '/repos/:owner/:repo/topics/:topic', operationId: 'repoAddTopic', access: 'signed', scopes: ['repository'],
    repoAccess: 'admin',
    async handle(ctx) {
      return editReply(await ctx.deps.services.topics.AddTopic({ ref: repoRef(ctx), topic: ctx.params.topic }, repoCall(ctx)), 'Topic name is invalid');
    },
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/topics/:topic', operationId: 'repoDeleteTopic', access: 'signed', scopes: ['repository'],
    repoAccess: 'admin',
    async handle(ctx) {
      return editReply(await ctx.deps.services.topics.DeleteTopic({ ref: repoRef(ctx), topic: ctx.params.topic }, repoCall(ctx)), 'Topic name is invalid');
    },
  },
  {
    method: 'GET', path: '/topics/search', operationId: 'topicSearch', access: 'public', scopes: ['repository'],
    async handle(ctx) {
      const { page, limit } = ctx.page();
      const q = typeof ctx.query.q === 'string' ? ctx.query.q : '';
      const reply = await ctx.deps.services.topics.SearchTopics({ q, page: { page, limit } }, repoCall(ctx));
      const topics = reply.topics.map((t) => ({ id: t.id, topic_name: t.name, repo_count: t.repo_count, created: formatTime(t.created_at), updated: formatTime(t.updated_at) }));
      return ok({ topics }, reply.total);
    },
  },
];
