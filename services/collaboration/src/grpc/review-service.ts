// anvil.collaboration.v1.ReviewService: decode the request, call the review domain with the
// repository the gateway resolved (signed metadata), encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type collaboration, type identity } from '@anvil/proto';
import {
  cancelReviewRequests, createReview, deleteReview, dismissReview, requestReviews, getReview, listReviewComments, listReviews, submitReview,
  type Review, type ReviewComment, type ReviewDeps, type TeamSnapshot,
} from '../domain/reviews.js';
import { pageOf } from './issue-service.js';
import { timestamp, userMessage } from './messages.js';

export const REVIEW_SERVICE_NAME = 'anvil.collaboration.v1.ReviewService';

export function reviewMessage(r: Review): collaboration.ReviewInput {
  return {
    id: r.id, pull_index: r.pullIndex, reviewer: r.reviewer ? userMessage(r.reviewer) : undefined, state: r.state, body: r.body,
    commit_id: r.commitId, official: r.official, stale: r.stale, dismissed: r.dismissed,
    submitted_at: timestamp(r.createdAt), updated_at: timestamp(r.updatedAt), comments_count: r.commentsCount,
    team: r.team ? (r.team as unknown as identity.TeamInput) : undefined,
  };
}

function commentMessage(c: ReviewComment): collaboration.ReviewCommentInput {
  return {
    id: c.id, review_id: c.reviewId, pull_index: c.pullIndex, user: c.poster ? userMessage(c.poster) : undefined, path: c.path, line: c.line,
    body: c.body, commit_id: c.commitId, original_commit_id: c.originalCommitId, diff_hunk: c.diffHunk,
    created_at: timestamp(c.createdAt), updated_at: timestamp(c.updatedAt),
  };
}

/** The teams as the gateway got them from identity, kept as they were when asked. */
const teamSnapshots = (teams: identity.Team[]): TeamSnapshot[] =>
  teams.map((t) => ({ ...t, id: Number(t.id), org_id: Number(t.org_id) }) as unknown as TeamSnapshot);

export function reviewService(deps: ReviewDeps): ServiceImplementation<collaboration.ReviewServiceHandlers> {
  return {
    async ListReviews(request, { repository }) {
      const { items, total } = await listReviews(deps, repository, request.pull_index, pageOf(request.page));
      return { reviews: items.map(reviewMessage), total };
    },
    async CreateReview(request, { caller, repository }) {
      const comments = request.comments.map((c) => ({ path: c.path, line: Number(c.line), body: c.body, diffHunk: c.diff_hunk }));
      return reviewMessage(await createReview(deps, repository, caller, request.pull_index, { event: request.event, body: request.body, commitId: request.commit_id, comments }));
    },
    async ListReviewComments(request, { caller, repository }) {
      return { comments: (await listReviewComments(deps, repository, caller, request.pull_index, request.id)).map(commentMessage) };
    },
    async GetReview(request, { repository }) {
      return reviewMessage(await getReview(deps, repository, request.pull_index, request.id));
    },
    async DeleteReview(request, { caller, repository }) {
      await deleteReview(deps, repository, caller, request.pull_index, request.id);
      return {};
    },
    async SubmitReview(request, { caller, repository }) {
      return reviewMessage(await submitReview(deps, repository, caller, request.pull_index, request.id, { event: request.event, body: request.body }));
    },
    async DismissReview(request, { caller, repository }) {
      return reviewMessage(await dismissReview(deps, repository, caller, request.pull_index, request.id, request.undo));
    },
    async RequestReviews(request, { caller, repository }) {
      const members = new Map(request.team_members.map((m) => [Number(m.team_id), m.user_ids.map(Number)]));
      const reviews = await requestReviews(deps, repository, caller, request.pull_index, request.reviewers, teamSnapshots(request.teams), members);
      return { reviews: reviews.map(reviewMessage), total: reviews.length };
    },
    async CancelReviewRequests(request, { caller, repository }) {
      await cancelReviewRequests(deps, repository, caller, request.pull_index, request.reviewers, teamSnapshots(request.teams));
      return {};
    },
  };
}

export function reviewGrpcService(deps: ReviewDeps) {
  return {
    name: REVIEW_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.collaboration.v1.ReviewService.service,
    implementation: reviewService(deps),
  };
}
