// Reviews in PostgreSQL, with their events in the same transaction (a pull_request event
// whose action names the verdict, carrying the pull as it stands).
import { outboxTransaction, type OutboxStoreOptions } from '@anvil/kit';
import type { ChangeContext } from '../domain/issue-store.js';
import type { Pull, PullAction } from '../domain/pull-store.js';
import { isStale, type Review, type ReviewComment, type ReviewState, type ReviewStore, type TeamSnapshot } from '../domain/reviews.js';
import type { UserProfile } from '../domain/users.js';
import { outboxRowOfPullEvent, type PullEventExtras } from '../events/pull-events.js';
import type { CollaborationDb, CollaborationTx } from './db.js';
import type { Prisma } from './generated/client.js';
import { rememberUsers } from './users.js';
import { headRepositoryOf } from './fork-repositories.js';

type Client = CollaborationDb | CollaborationTx;

interface ReviewRow {
  id: bigint; issue_id: bigint; reviewer_id: bigint; state: string; body: string; commit_id: string; official: boolean; stale: boolean;
  dismissed: boolean; created_at: Date; updated_at: Date; reviewer: UserProfile | null; comments_count: bigint;
  team_id: bigint; team: TeamSnapshot | null;
}

interface CommentRow {
  id: bigint; review_id: bigint; poster_id: bigint; path: string; line: number; body: string; commit_id: string; original_commit_id: string;
  diff_hunk: string; created_at: Date; updated_at: Date; poster: UserProfile | null;
}

function toComment(pull: Pull, row: CommentRow): ReviewComment {
  return {
    id: Number(row.id), reviewId: Number(row.review_id), pullIndex: pull.issue.index, posterId: Number(row.poster_id),
    poster: row.poster ? { ...row.poster, id: Number(row.poster.id) } : undefined, path: row.path, line: row.line, body: row.body,
    commitId: row.commit_id, originalCommitId: row.original_commit_id, diffHunk: row.diff_hunk, createdAt: row.created_at, updatedAt: row.updated_at,
  };
}

function toReview(pull: Pull, row: ReviewRow): Review {
  return {
    id: Number(row.id), pullIndex: pull.issue.index, reviewerId: Number(row.reviewer_id),
    reviewer: row.reviewer ? { ...row.reviewer, id: Number(row.reviewer.id) } : undefined, state: row.state as ReviewState, body: row.body,
    commitId: row.commit_id, official: row.official, stale: isStale({ stale: row.stale, commitId: row.commit_id }, pull.headSha),
    dismissed: row.dismissed, createdAt: row.created_at, updatedAt: row.updated_at, commentsCount: Number(row.comments_count ?? 0),
    teamId: Number(row.team_id ?? 0), team: row.team ?? undefined,
  };
}

async function rows(db: Client, pull: Pull, where: { id?: number; offset?: number; limit?: number }): Promise<{ items: ReviewRow[]; total: number }> {
  const id = where.id === undefined ? null : BigInt(where.id);
  const items = await db.$queryRaw<Array<ReviewRow & { total: bigint }>>`
    SELECT r.*, u.profile AS reviewer, count(*) OVER () AS total,
      (SELECT count(*) FROM pull_review_comment c WHERE c.review_id = r.id) AS comments_count
    FROM pull_review r LEFT JOIN "user" u ON u.id = r.reviewer_id
    WHERE r.issue_id = ${BigInt(pull.issue.id)} AND (${id}::bigint IS NULL OR r.id = ${id}::bigint)
    ORDER BY r.id LIMIT ${where.limit ?? 1} OFFSET ${where.offset ?? 0}`;
  return { items, total: Number(items[0]?.total ?? 0) };
}

/** Gitea's ReviewPayload: the webhook event the verdict fires, and the review's body. */
function reviewPayload(action: PullAction, content: string) {
  return { type: `pull_request_${action}`, content };
}

export function reviewStore(db: CollaborationDb, options: OutboxStoreOptions = {}): ReviewStore {
  type Publish = (context: ChangeContext, pull: Pull, action: PullAction, extras?: PullEventExtras) => Promise<void>;
  const inTransaction = <R>(work: (tx: CollaborationTx, publish: Publish) => Promise<R>) =>
    outboxTransaction(db, (tx: CollaborationTx, published: string[]) => ({
      tx,
      async publish(context: ChangeContext, pull: Pull, action: PullAction, extras?: PullEventExtras) {
        const row = outboxRowOfPullEvent(context, pull, action, { ...extras, headRepository: await headRepositoryOf(tx, pull) });
        await tx.outboxEvent.create({ data: row });
        published.push(row.id);
      },
    }), ({ tx, publish }) => work(tx, publish), options);

  return {
    create(context, pull, review, comments = []) {
      return inTransaction(async (tx, publish) => {
        await rememberUsers(tx, context.knownUsers);
        const created = await tx.pullReview.create({
          data: {
            issue_id: BigInt(pull.issue.id), reviewer_id: BigInt(review.reviewerId), state: review.state, body: review.body,
            commit_id: review.commitId, official: review.official,
          },
        });
        if (comments.length) {
          await tx.pullReviewComment.createMany({
            data: comments.map((c) => ({
              review_id: created.id, issue_id: BigInt(pull.issue.id), poster_id: BigInt(review.reviewerId), path: c.path, line: c.line,
              body: c.body, commit_id: review.commitId, original_commit_id: review.commitId, diff_hunk: c.diffHunk,
            })),
          });
        }
        if (review.state !== 'PENDING') {
          const action = review.state === 'APPROVED' ? 'review_approved' : review.state === 'REQUEST_CHANGES' ? 'review_rejected' : 'review_comment';
          await publish(context, pull, action, { review: reviewPayload(action, review.body) });
        }
        return toReview(pull, (await rows(tx, pull, { id: Number(created.id) })).items[0]);
      });
    },

    async list(pull, page) {
      const { items, total } = await rows(db, pull, { offset: page.offset, limit: page.limit });
      return { items: items.map((r) => toReview(pull, r)), total };
    },

    async find(pull, id) {
      const [row] = (await rows(db, pull, { id })).items;
      return row ? toReview(pull, row) : undefined;
    },

    update(context, pull, id, change, event) {
      return inTransaction(async (tx, publish) => {
        await tx.pullReview.update({
          where: { id: BigInt(id) },
          data: {
            state: change.state, body: change.body, dismissed: change.dismissed, updated_at: new Date(),
            // A submitted review looks at the head as it is now.
            ...(change.commitId !== undefined ? { commit_id: change.commitId, stale: false } : {}),
          },
        });
        const updated = toReview(pull, (await rows(tx, pull, { id })).items[0]);
        if (event) await publish(context, pull, event as PullAction, { review: reviewPayload(event as PullAction, updated.body) });
        return updated;
      });
    },

    request(context, pull, reviewerIds, teams = [], teamMembers = new Map()) {
      return inTransaction(async (tx, publish) => {
        await rememberUsers(tx, context.knownUsers);
        const issueId = BigInt(pull.issue.id);
        const asked = await tx.pullReview.findMany({
          where: { issue_id: issueId, state: 'REQUEST_REVIEW', OR: [{ reviewer_id: { in: reviewerIds.map(BigInt) } }, { team_id: { in: teams.map((t) => BigInt(t.id)) } }] },
        });
        const created: Review[] = [];
        // Asked by a writer: an official request (the rule "block on official review requests").
        const add = async (data: { reviewer_id: bigint; team_id?: bigint; team?: Prisma.InputJsonValue }) => {
          const row = await tx.pullReview.create({ data: { issue_id: issueId, state: 'REQUEST_REVIEW', official: true, commit_id: pull.headSha, ...data } });
          const request = toReview(pull, (await rows(tx, pull, { id: Number(row.id) })).items[0]);
          created.push(request);
          // A user's request names them (Gitea's requested_reviewer); a team's names its members.
          const requestedReviewer = data.reviewer_id > 0n ? request.reviewer ?? ({ id: Number(data.reviewer_id), login: '' } as UserProfile) : undefined;
          const requestedTeamMemberIds = data.team_id ? teamMembers.get(Number(data.team_id)) ?? [] : [];
          await publish(context, pull, 'review_requested', { requestedReviewer, requestedTeamMemberIds });
        };
        for (const id of reviewerIds) {
          if (!asked.some((r) => Number(r.reviewer_id) === id)) await add({ reviewer_id: BigInt(id) });
        }
        for (const team of teams) {
          if (!asked.some((r) => Number(r.team_id) === team.id)) await add({ reviewer_id: 0n, team_id: BigInt(team.id), team: team as unknown as Prisma.InputJsonValue });
        }
        return created;
      });
    },

    cancelRequests(context, pull, reviewerIds, teamIds = []) {
      return inTransaction(async (tx, publish) => {
        // Each removed request names its reviewer (Gitea's requested_reviewer); a team's names no one.
        const removed = await tx.$queryRaw<Array<{ reviewer_id: bigint; reviewer: UserProfile | null }>>`
          DELETE FROM pull_review r USING (SELECT id FROM pull_review WHERE issue_id = ${BigInt(pull.issue.id)} AND state = 'REQUEST_REVIEW'
            AND (reviewer_id = ANY(${reviewerIds.map(BigInt)}::bigint[]) OR team_id = ANY(${teamIds.map(BigInt)}::bigint[]))) gone
          WHERE r.id = gone.id
          RETURNING r.reviewer_id, (SELECT u.profile FROM "user" u WHERE u.id = r.reviewer_id) AS reviewer`;
        for (const { reviewer_id, reviewer } of removed) {
          const requestedReviewer = reviewer ? { ...reviewer, id: Number(reviewer.id) } : reviewer_id > 0n ? { id: Number(reviewer_id), login: '' } : undefined;
          await publish(context, pull, 'review_request_removed', { requestedReviewer });
        }
      });
    },

    async comments(pull, reviewId) {
      const found = await db.$queryRaw<CommentRow[]>`
        SELECT c.*, u.profile AS poster FROM pull_review_comment c LEFT JOIN "user" u ON u.id = c.poster_id
        WHERE c.review_id = ${BigInt(reviewId)} AND c.issue_id = ${BigInt(pull.issue.id)} ORDER BY c.id`;
      return found.map((row) => toComment(pull, row));
    },

    async remove(pull, id) {
      await db.$transaction([
        db.pullReviewComment.deleteMany({ where: { review_id: BigInt(id), issue_id: BigInt(pull.issue.id) } }),
        db.pullReview.deleteMany({ where: { id: BigInt(id), issue_id: BigInt(pull.issue.id) } }),
      ]);
    },
  };
}
