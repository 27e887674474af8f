// anvil.collaboration.v1.CommentService: decode the request, call the comment domain with
// the repository the gateway resolved (signed metadata), encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type collaboration } from '@anvil/proto';
import { createComment, deleteComment, editComment, getComment, listIssueComments, listRepositoryComments, listTimeline, type CommentDeps } from '../domain/comments.js';
import { pageOf } from './issue-service.js';
import { commentMessage, dateOf } from './messages.js';

export const COMMENT_SERVICE_NAME = 'anvil.collaboration.v1.CommentService';

export function commentService(deps: CommentDeps): ServiceImplementation<collaboration.CommentServiceHandlers> {
  return {
    async ListIssueComments(request, { repository }) {
      const comments = await listIssueComments(deps, repository, request.index, { since: dateOf(request.since), before: dateOf(request.before) });
      return { comments: comments.map(commentMessage), total: comments.length };
    },
    async ListRepoComments(request, { repository }) {
      const { items, total } = await listRepositoryComments(deps, repository, { since: dateOf(request.since), before: dateOf(request.before), ...pageOf(request.page) });
      return { comments: items.map(commentMessage), total };
    },
    async ListTimeline(request, { repository }) {
      const { items, total } = await listTimeline(deps, repository, request.index, { since: dateOf(request.since), before: dateOf(request.before), ...pageOf(request.page) });
      return { comments: items.map(commentMessage), total };
    },
    async GetComment(request, { repository }) {
      return commentMessage(await getComment(deps, repository, request.id));
    },
    async CreateComment(request, { caller, repository }) {
      return commentMessage(await createComment(deps, repository, caller, request.index, request.body));
    },
    async EditComment(request, { caller, repository }) {
      return commentMessage(await editComment(deps, repository, caller, request.id, request.body));
    },
    async DeleteComment(request, { caller, repository }) {
      await deleteComment(deps, repository, caller, request.id);
      return {};
    },
  };
}

export function commentGrpcService(deps: CommentDeps) {
  return {
    name: COMMENT_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.collaboration.v1.CommentService.service,
    implementation: commentService(deps),
  };
}
