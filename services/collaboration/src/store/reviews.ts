// Reviews in PostgreSQL, with their events in the same transaction (a pull_request event
// whose action names the verdict, carrying the pull as it stands).
import { outboxTransaction, type OutboxStoreOptions } from '@anvil/kit';
import type { ChangeContext } from '../domain/issue-store.js';
import type { Pull, PullAction } from '../domain/pull-store.js';
import type { Review, ReviewState, ReviewStore } from '../domain/reviews.js';
import type { UserProfile } from '../domain/users.js';
import { outboxRowOfPullEvent, type PullEventExtras } from '../events/pull-events.js';
import type { CollaborationDb, CollaborationTx } from './db.js';
import { rememberUsers } from './users.js';

type Client = CollaborationDb | CollaborationTx;

interface ReviewRow {
  id: bigint; issue_id: bigint; reviewer_id: bigint; state: string; body: string; commit_id: string; official: boolean; stale: boolean;
  dismissed: boolean; created_at: Date; updated_at: Date; reviewer: UserProfile | null;
}

function toReview(pull: Pull, row: ReviewRow): Review {
  return {
    id: Number(row.id), pullIndex: pull.issue.index, reviewerId: Number(row.reviewer_id),
    reviewer: row.reviewer ? { ...row.reviewer, id: Number(row.reviewer.id) } : undefined, state: row.state as ReviewState, body: row.body,
    // A review is stale once the pull's head moved past the commit it looked at.
    commitId: row.commit_id, official: row.official, stale: row.stale || (row.commit_id !== '' && row.commit_id !== pull.headSha),
    dismissed: row.dismissed, createdAt: row.created_at, updatedAt: row.updated_at,
  };
}

async function rows(db: Client, pull: Pull, where: { id?: number; offset?: number; limit?: number }): Promise<{ items: ReviewRow[]; total: number }> {
  const id = where.id === undefined ? null : BigInt(where.id);
  const items = await db.$queryRaw<Array<ReviewRow & { total: bigint }>>`
    SELECT r.*, u.profile AS reviewer, count(*) OVER () AS total FROM pull_review r LEFT JOIN "user" u ON u.id = r.reviewer_id
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
        const row = outboxRowOfPullEvent(context, pull, action, extras);
        await tx.outboxEvent.create({ data: row });
        published.push(row.id);
      },
    }), ({ tx, publish }) => work(tx, publish), options);

  return {
    create(context, pull, review) {
      return inTransaction(async (tx, publish) => {
        await rememberUsers(tx, context.knownUsers);
        const created = await tx.pullReview.create({
          data: {
            issue_id: BigInt(pull.issue.id), reviewer_id: BigInt(review.reviewerId), state: review.state, body: review.body,
            commit_id: review.commitId, official: review.official,
          },
        });
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

    request(context, pull, reviewerIds) {
      return inTransaction(async (tx, publish) => {
        await rememberUsers(tx, context.knownUsers);
        const asked = await tx.pullReview.findMany({ where: { issue_id: BigInt(pull.issue.id), state: 'REQUEST_REVIEW', reviewer_id: { in: reviewerIds.map(BigInt) } } });
        const created: Review[] = [];
        for (const id of reviewerIds) {
          if (asked.some((r) => Number(r.reviewer_id) === id)) continue;
          // Asked by a writer: an official request (the rule "block on official review requests").
          const row = await tx.pullReview.create({ data: { issue_id: BigInt(pull.issue.id), reviewer_id: BigInt(id), state: 'REQUEST_REVIEW', official: true, commit_id: pull.headSha } });
          const request = toReview(pull, (await rows(tx, pull, { id: Number(row.id) })).items[0]);
          created.push(request);
          await publish(context, pull, 'review_requested', { requestedReviewer: request.reviewer ?? { id, login: '' } as UserProfile });
        }
        return created;
      });
    },

    cancelRequests(context, pull, reviewerIds) {
      return inTransaction(async (tx, publish) => {
        // Each removed request names its reviewer (Gitea's requested_reviewer).
        const removed = await tx.$queryRaw<Array<{ reviewer_id: bigint; reviewer: UserProfile | null }>>`
          DELETE FROM pull_review r USING (SELECT id FROM pull_review WHERE issue_id = ${BigInt(pull.issue.id)} AND state = 'REQUEST_REVIEW'
            AND reviewer_id = ANY(${reviewerIds.map(BigInt)}::bigint[])) gone
          WHERE r.id = gone.id
          RETURNING r.reviewer_id, (SELECT u.profile FROM "user" u WHERE u.id = r.reviewer_id) AS reviewer`;
        for (const { reviewer_id, reviewer } of removed) {
          const requestedReviewer = reviewer ? { ...reviewer, id: Number(reviewer.id) } : { id: Number(reviewer_id), login: '' };
          await publish(context, pull, 'review_request_removed', { requestedReviewer });
        }
      });
    },

    async remove(pull, id) {
      await db.pullReview.deleteMany({ where: { id: BigInt(id), issue_id: BigInt(pull.issue.id) } });
    },
  };
}
