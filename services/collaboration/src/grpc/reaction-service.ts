// anvil.collaboration.v1.ReactionService: decode the request, call the reaction domain with
// the repository the gateway resolved (signed metadata), encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type collaboration } from '@anvil/proto';
import {
  listCommentReactions, listIssueReactions, reactToComment, reactToIssue, unreactToComment, unreactToIssue, type ReactionDeps,
} from '../domain/reactions.js';
import { pageOf } from './issue-service.js';
import { reactionMessage } from './messages.js';

export const REACTION_SERVICE_NAME = 'anvil.collaboration.v1.ReactionService';

export function reactionService(deps: ReactionDeps): ServiceImplementation<collaboration.ReactionServiceHandlers> {
  return {
    async ListIssueReactions(request, { repository }) {
      const { items, total } = await listIssueReactions(deps, repository, request.index, pageOf(request.page));
      return { reactions: items.map(reactionMessage), total };
    },
    async ReactToIssue(request, { caller, repository }) {
      const { reaction, created } = await reactToIssue(deps, repository, caller, request.index, request.content);
      return { reaction: reactionMessage(reaction), created };
    },
    async UnreactToIssue(request, { caller, repository }) {
      await unreactToIssue(deps, repository, caller, request.index, request.content);
      return {};
    },
    async ListCommentReactions(request, { repository }) {
      const items = await listCommentReactions(deps, repository, request.comment_id);
      return { reactions: items.map(reactionMessage), total: items.length };
    },
    async ReactToComment(request, { caller, repository }) {
      const { reaction, created } = await reactToComment(deps, repository, caller, request.comment_id, request.content);
      return { reaction: reactionMessage(reaction), created };
    },
    async UnreactToComment(request, { caller, repository }) {
      await unreactToComment(deps, repository, caller, request.comment_id, request.content);
      return {};
    },
  };
}

export function reactionGrpcService(deps: ReactionDeps) {
  return {
    name: REACTION_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.collaboration.v1.ReactionService.service,
    implementation: reactionService(deps),
  };
}
