// The issue's timeline: each recorded change is a `comment` row of Gitea's type for it
// (change_title, change_issue_ref, close, reopen, assignees, milestone, label, lock,
// unlock), written in the transaction of the change, with what it records in `data` as the
// messages the gateway presents.
import type { ChangeContext, Issue, IssueEventFacts } from '../domain/issue-store.js';
import { labelMessage, milestoneMessage } from '../grpc/messages.js';
import type { Prisma } from './generated/client.js';
import type { CollaborationTx } from './db.js';

interface Entry {
  type: string;
  body?: string;
  data?: Record<string, unknown>;
}

function entriesOf(before: Issue, after: Issue, facts: IssueEventFacts): Entry[] {
  switch (facts.action) {
    case 'edited': {
      const entries: Entry[] = [];
      if (facts.changes?.titleFrom !== undefined) entries.push({ type: 'change_title', data: { old_title: facts.changes.titleFrom, new_title: after.title } });
      if (facts.changes?.refFrom !== undefined) entries.push({ type: 'change_issue_ref', data: { old_ref: facts.changes.refFrom, new_ref: after.ref } });
      return entries;
    }
    case 'closed':
      return [{ type: 'close' }];
    case 'reopened':
      return [{ type: 'reopen' }];
    case 'assigned':
    case 'unassigned':
      return [{ type: 'assignees', data: { assignee: facts.assignee, removed_assignee: facts.action === 'unassigned' } }];
    case 'milestoned':
    case 'demilestoned':
      return [{
        type: 'milestone',
        data: { milestone: after.milestone ? milestoneMessage(after.milestone) : null, old_milestone: before.milestone ? milestoneMessage(before.milestone) : null },
      }];
    case 'label_updated':
    case 'label_cleared':
      // Gitea's label comments: body "1" when added, "" when removed.
      return [
        ...(facts.addedLabels ?? []).map((l) => ({ type: 'label', body: '1', data: { label: labelMessage(l) } })),
        ...(facts.removedLabels ?? []).map((l) => ({ type: 'label', body: '', data: { label: labelMessage(l) } })),
      ];
    default:
      return [];
  }
}

/** Records the changes an edit made (and a lock or unlock, with its reason). */
export async function recordTimeline(tx: CollaborationTx, context: ChangeContext, before: Issue, after: Issue, facts: IssueEventFacts[], lock?: { locked: boolean; reason: string }): Promise<void> {
  const entries = facts.flatMap((f) => entriesOf(before, after, f));
  if (lock) entries.push({ type: lock.locked ? 'lock' : 'unlock', body: lock.reason });
  if (!entries.length) return;
  const now = new Date();
  await tx.comment.createMany({
    data: entries.map((e) => ({
      issue_id: BigInt(after.id), repository_id: BigInt(after.repositoryId), poster_id: BigInt(context.sender.id),
      type: e.type, body: e.body ?? '', data: (e.data ?? undefined) as Prisma.InputJsonValue | undefined, created_at: now, updated_at: now,
    })),
  });
}
