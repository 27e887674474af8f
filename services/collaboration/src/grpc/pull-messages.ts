// Pull requests as collaboration messages, shared by the gRPC adapter and the events.
import type { collaboration as pb, identity } from '@anvil/proto';
import type { Pull } from '../domain/pull-store.js';
import { issueMessage, timestamp, userMessage } from './messages.js';

export function pullMessage(pull: Pull): pb.PullRequestInput {
  return {
    issue: issueMessage(pull.issue), base_branch: pull.baseBranch, head_branch: pull.headBranch, head_repo_id: pull.headRepoId, head_owner_login: pull.headOwnerLogin,
    head_sha: pull.headSha, merge_base: pull.mergeBase, status: pull.status, conflicted_files: pull.conflictedFiles,
    additions: pull.additions, deletions: pull.deletions, changed_files: pull.changedFiles, has_merged: pull.hasMerged,
    merged_at: pull.mergedAt ? timestamp(pull.mergedAt) : undefined, merged_by: pull.mergedBy ? userMessage(pull.mergedBy) : undefined,
    merge_commit_sha: pull.mergeCommitSha, requested_reviewers: pull.requestedReviewers.map(userMessage),
    requested_reviewer_teams: pull.requestedTeams as unknown as identity.TeamInput[], review_comments: pull.reviewComments,
    base_sha: pull.baseSha,
  };
}
