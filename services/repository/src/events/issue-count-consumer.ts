// Consumes collaboration's repo_issue_counts events into repository.num_open_issues and
// num_open_pulls (Gitea keeps the same counts on its repository row), so every repository
// JSON carries open_issues_count and open_pr_counter without asking collaboration. Each
// event carries the counts whole with their version: the row keeps the newest applied, so a
// redelivered or late event changes nothing (the kit also runs `handle` inside the
// processed-event transaction). updated_at stays: an issue is no change to the repository.
import type { ConsumerOptions } from '@anvil/kit';
import type { collaboration } from '@anvil/proto';
import type { RepositoryTx } from '../store/db.js';

export const ISSUE_COUNT_CONSUMER = 'repository-issue-counts';

export function issueCountConsumer(): Omit<ConsumerOptions<RepositoryTx>, 'db' | 'bus' | 'log'> {
  return {
    durable: ISSUE_COUNT_CONSUMER,
    filter: 'collaboration.repo_issue_counts.>',
    async handle(event, tx) {
      const counts = event.payload as collaboration.RepositoryIssueCounts | undefined;
      const id = Number(counts?.repository_id ?? 0);
      if (!counts || !id) return;
      const version = BigInt(counts.version);
      await tx.$executeRaw`UPDATE repository SET num_open_issues = ${Number(counts.open_issues)}, num_open_pulls = ${Number(counts.open_pulls)},
          issue_counts_version = ${version}
        WHERE id = ${BigInt(id)} AND issue_counts_version < ${version}`;
    },
  };
}
