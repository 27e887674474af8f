// A repository's issue and pull counts (proto RepositoryIssueCounts), written as an outbox row
// with the change that moved them (store/issue-counts.ts): the repository service keeps
// open_issues_count and open_pr_counter from them.
import { outboxEvent, type OutboxEventRow } from '@anvil/kit';
import type { collaboration as pb } from '@anvil/proto';

export const ISSUE_COUNTS_EVENT_TYPE = 'anvil.collaboration.v1.RepositoryIssueCounts';
export const ISSUE_COUNTS_SUBJECT = 'collaboration.repo_issue_counts.changed';

export function outboxRowOfIssueCounts(counts: pb.RepositoryIssueCountsInput): OutboxEventRow {
  return outboxEvent(ISSUE_COUNTS_SUBJECT, ISSUE_COUNTS_EVENT_TYPE, counts);
}
