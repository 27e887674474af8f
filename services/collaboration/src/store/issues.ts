// Issues in PostgreSQL. A new issue's index comes from an upsert on its repository's
// `issue_index` row in the transaction that inserts it, as late in it as can be:
// concurrent creators queue on that row lock, so each gets the next index and none is lost
// or repeated (pull requests take theirs from the same row). The same row keeps the open/closed
// counts lists report and the repository service is told of (store/issue-counts.ts).
import { outboxTransaction, type OutboxStoreOptions } from '@anvil/kit';
import type { ChangeContext, Issue, IssueEventFacts, IssueStore } from '../domain/issue-store.js';
import { dependenciesEnabled, dependenciesLeft } from '../domain/issue-dependencies.js';
import { outboxRowOfIssueEvent } from '../events/issue-events.js';
import { Prisma } from './generated/client.js';
import type { CollaborationDb, CollaborationTx } from './db.js';
import { listIssueRows, readIssue, toLabel } from './issue-rows.js';
import { announceIssueCounts, moveIssueCount, takeIssueIndex } from './issue-counts.js';
import { findPullIn } from './pulls.js';
import { recordTimeline } from './timeline.js';
import { profileOf, rememberUsers, usersByLogin } from './users.js';
import { headRepositoryOf } from './fork-repositories.js';

/** Milestone counts are recounted, not adjusted, so they stay exact whatever happened. */
async function recountMilestones(tx: CollaborationTx, ids: Array<number | null | undefined>): Promise<void> {
  const wanted = [...new Set(ids.filter((id): id is number => !!id))].map((id) => BigInt(id));
  if (!wanted.length) return;
  await tx.$executeRaw`UPDATE milestone m SET
      open_issues = (SELECT count(*) FROM issue i WHERE i.milestone_id = m.id AND NOT i.is_closed),
      closed_issues = (SELECT count(*) FROM issue i WHERE i.milestone_id = m.id AND i.is_closed)
    WHERE m.id = ANY(${wanted}::bigint[])`;
}

const byId = (id: number) => Prisma.sql`i.id = ${BigInt(id)}`;
const byIndex = (repositoryId: number, index: number) => Prisma.sql`i.repository_id = ${BigInt(repositoryId)} AND i.index = ${BigInt(index)}`;

export function issueStore(db: CollaborationDb, options: OutboxStoreOptions = {}): IssueStore {
  /** Runs a change and writes its events (derived from the issue after it) in one transaction. */
  const inTransaction = <R>(work: (tx: CollaborationTx, publish: (context: ChangeContext, issue: Issue, facts: IssueEventFacts) => Promise<void>) => Promise<R>) =>
    outboxTransaction(db, (tx: CollaborationTx, published: string[]) => ({
      tx,
      async publish(context: ChangeContext, issue: Issue, facts: IssueEventFacts) {
        // The sender as identity described them, for the webhook's `sender`.
        const sender = await profileOf(tx, context.sender);
        // A pull's label, assignee and milestone changes fire the pull_request_* webhooks,
        // whose payload is the pull: it goes with the event.
        const pull = issue.isPull ? await findPullIn(tx, byId(issue.id)) : undefined;
        const row = outboxRowOfIssueEvent({ ...context, sender }, issue, facts, pull, await headRepositoryOf(tx, pull));
        await tx.outboxEvent.create({ data: row });
        published.push(row.id);
      },
    }), ({ tx, publish }) => work(tx, publish), options);

  return {
    create(context, issue) {
      return inTransaction(async (tx, publish) => {
        await rememberUsers(tx, context.knownUsers);
        const repositoryId = BigInt(context.repository.id);
        const now = new Date();
        // The row goes in under a provisional negative index no one else sees; the real one is
        // taken last, so the repository's index row stays locked for as short a time as can be.
        const provisional = -BigInt(Date.now()) * 1_000_000n - BigInt(Math.floor(Math.random() * 1_000_000));
        const created = await tx.issue.create({
          data: {
            repository_id: repositoryId, index: provisional, poster_id: BigInt(issue.posterId), title: issue.title, body: issue.body, ref: issue.ref,
            is_closed: issue.isClosed, closed_at: issue.isClosed ? now : null, milestone_id: issue.milestoneId ? BigInt(issue.milestoneId) : null,
            due_date: issue.dueDate ?? null, created_at: now, updated_at: now,
            labels: { createMany: { data: issue.labelIds.map((id) => ({ label_id: BigInt(id) })) } },
            assignees: { createMany: { data: issue.assigneeIds.map((id) => ({ user_id: BigInt(id) })) } },
            mentions: { createMany: { data: issue.mentionedIds.map((id) => ({ user_id: BigInt(id) })) } },
          },
          select: { id: true },
        });
        await recountMilestones(tx, [issue.milestoneId]);
        const { index, counts } = await takeIssueIndex(tx, context.repository.id, { isPull: false, isClosed: issue.isClosed });
        await announceIssueCounts(tx, context.repository.id, counts);
        await tx.issue.update({ where: { id: created.id }, data: { index } });
        const stored = (await readIssue(tx, byId(Number(created.id))))!;
        await publish(context, stored, { action: 'opened' });
        // Gitea notifies a creation with closed: true as opened, then closed.
        if (issue.isClosed) await publish(context, stored, { action: 'closed' });
        return stored;
      });
    },

    list: (repository, query) => listIssueRows(db, repository, query),

    find: (repositoryId, index) => readIssue(db, byIndex(repositoryId, index)),

    edit(context, index, change, eventsOf) {
      return inTransaction(async (tx, publish) => {
        await rememberUsers(tx, context.knownUsers);
        // Lock the issue so concurrent edits apply one after another.
        const locked = await tx.$queryRaw<Array<{ id: bigint }>>`SELECT id FROM issue WHERE repository_id = ${BigInt(context.repository.id)} AND index = ${BigInt(index)} FOR UPDATE`;
        if (!locked.length) return undefined;
        const id = Number(locked[0].id);
        const before = (await readIssue(tx, byId(id)))!;
        const now = new Date();
        const data: Prisma.IssueUncheckedUpdateInput = { updated_at: now };
        if (change.title !== undefined) data.title = change.title;
        if (change.body !== undefined && change.body !== before.body) {
          data.body = change.body;
          data.content_version = { increment: 1 };
        }
        if (change.ref !== undefined) data.ref = change.ref;
        if (change.isLocked !== undefined) data.is_locked = change.isLocked;
        if (change.isClosed !== undefined && change.isClosed !== before.isClosed) {
          // Gitea checks open dependencies only while the repository has dependencies on.
          if (change.isClosed && dependenciesEnabled(context.repository)) {
            const [{ open }] = await tx.$queryRaw<Array<{ open: bigint }>>`
              SELECT count(*) AS open FROM issue_dependency d JOIN issue b ON b.id = d.dependency_id WHERE d.issue_id = ${BigInt(id)} AND NOT b.is_closed`;
            if (open > 0n) throw dependenciesLeft();
          }
          data.is_closed = change.isClosed;
          data.closed_at = change.isClosed ? now : null;
          await moveIssueCount(tx, before.repositoryId, before, { isPull: before.isPull, isClosed: change.isClosed });
        }
        if (change.milestoneId !== undefined) data.milestone_id = change.milestoneId === null ? null : BigInt(change.milestoneId);
        if (change.dueDate !== undefined) data.due_date = change.dueDate;
        await tx.issue.update({ where: { id: BigInt(id) }, data });
        if (change.assigneeIds) {
          await tx.issueAssignee.deleteMany({ where: { issue_id: BigInt(id), user_id: { notIn: change.assigneeIds.map(BigInt) } } });
          await tx.issueAssignee.createMany({ data: change.assigneeIds.map((u) => ({ issue_id: BigInt(id), user_id: BigInt(u) })), skipDuplicates: true });
        }
        if (change.labelIds) {
          await tx.issueLabel.deleteMany({ where: { issue_id: BigInt(id), label_id: { notIn: change.labelIds.map(BigInt) } } });
          await tx.issueLabel.createMany({ data: change.labelIds.map((l) => ({ issue_id: BigInt(id), label_id: BigInt(l) })), skipDuplicates: true });
        }
        if (change.mentionedIds) {
          await tx.issueMention.createMany({ data: change.mentionedIds.map((u) => ({ issue_id: BigInt(id), user_id: BigInt(u) })), skipDuplicates: true });
        }
        await recountMilestones(tx, [before.milestone?.id, change.milestoneId]);
        const after = (await readIssue(tx, byId(id)))!;
        const events = eventsOf(before, after);
        const lock = change.isLocked !== undefined && change.isLocked !== before.isLocked ? { locked: change.isLocked, reason: change.lockReason ?? '' } : undefined;
        await recordTimeline(tx, context, before, after, events, lock);
        for (const facts of events) await publish(context, after, facts);
        return after;
      });
    },

    remove(context, index) {
      return inTransaction(async (tx, publish) => {
        const issue = await readIssue(tx, byIndex(context.repository.id, index));
        if (!issue) return false;
        await tx.issue.delete({ where: { id: BigInt(issue.id) } });
        await moveIssueCount(tx, issue.repositoryId, issue, undefined);
        await recountMilestones(tx, [issue.milestone?.id]);
        await publish(context, issue, { action: 'deleted' });
        return true;
      });
    },

    async usableLabels(repository, ids) {
      const rows = await db.label.findMany({
        where: {
          id: { in: ids.map(BigInt) },
          OR: [{ repository_id: BigInt(repository.id) }, ...(repository.ownerIsOrg ? [{ org_id: BigInt(repository.ownerId) }] : [])],
        },
      });
      return rows.map((l) => toLabel({ ...l, id: Number(l.id), archived: l.archived_at !== null, repository_id: l.repository_id === null ? null : Number(l.repository_id), org_id: l.org_id === null ? null : Number(l.org_id) }));
    },

    async findMilestone(repositoryId, id) {
      const row = await db.milestone.findFirst({ where: { id: BigInt(id), repository_id: BigInt(repositoryId) } });
      return row ? {
        id: Number(row.id), title: row.name, description: row.description, isClosed: row.is_closed, openIssues: row.open_issues, closedIssues: row.closed_issues,
        createdAt: row.created_at, updatedAt: row.updated_at, closedAt: row.closed_at ?? undefined, dueDate: row.due_date ?? undefined,
      } : undefined;
    },

    usersByLogin: (logins) => usersByLogin(db, logins),
  };
}

/** repository.repo.deleted: the repository's issues, labels, milestones and index go with it. */
export async function removeRepositoryIssues(tx: CollaborationTx, repositoryId: number): Promise<void> {
  const id = BigInt(repositoryId);
  await tx.issue.deleteMany({ where: { repository_id: id } });
  await tx.label.deleteMany({ where: { repository_id: id } });
  await tx.milestone.deleteMany({ where: { repository_id: id } });
  await tx.issueIndex.deleteMany({ where: { repository_id: id } });
}
