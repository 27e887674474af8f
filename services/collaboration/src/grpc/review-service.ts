// anvil.collaboration.v1.ReviewService: decode the request, call the review domain with the
// repository the gateway resolved (signed metadata), encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type collaboration } from '@anvil/proto';
import { cancelReviewRequests, createReview, deleteReview, dismissReview, requestReviews, getReview, listReviews, reviewSummary, submitReview, type Review, type ReviewDeps } from '../domain/reviews.js';
import { pageOf } from './issue-service.js';
import { timestamp, userMessage } from './messages.js';

export const REVIEW_SERVICE_NAME = 'anvil.collaboration.v1.ReviewService';

export function reviewMessage(r: Review): collaboration.ReviewInput {
  return {
    id: r.id, pull_index: r.pullIndex, reviewer: r.reviewer ? userMessage(r.reviewer) : undefined, state: r.state, body: r.body,
    commit_id: r.commitId, official: r.official, stale: r.stale, dismissed: r.dismissed,
    submitted_at: timestamp(r.createdAt), updated_at: timestamp(r.updatedAt), comments_count: 0,
  };
}

export function reviewService(deps: ReviewDeps): ServiceImplementation<collaboration.ReviewServiceHandlers> {
  return {
    async ListReviews(request, { repository }) {
      const { items, total } = await listReviews(deps, repository, request.pull_index, pageOf(request.page));
      return { reviews: items.map(reviewMessage), total };
    },
    async CreateReview(request, { caller, repository }) {
      return reviewMessage(await createReview(deps, repository, caller, request.pull_index, { event: request.event, body: request.body, commitId: request.commit_id }));
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
      const reviews = await requestReviews(deps, repository, caller, request.pull_index, request.reviewers);
      return { reviews: reviews.map(reviewMessage), total: reviews.length };
    },
    async CancelReviewRequests(request, { caller, repository }) {
      await cancelReviewRequests(deps, repository, caller, request.pull_index, request.reviewers);
      return {};
    },
    async GetReviewSummary(request, { repository }) {
      const verdicts = await reviewSummary(deps, repository, request.pull_index);
      return { verdicts: verdicts.map((r) => ({ reviewer_id: r.reviewerId, state: r.state, official: r.official, stale: r.stale })) };
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
