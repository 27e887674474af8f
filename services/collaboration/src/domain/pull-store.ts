// What the pull request rules need from storage; src/store/pulls.ts implements it over Prisma.
import type { ChangeContext, Issue, IssueQuery, NewIssue } from './issue-store.js';
import type { TeamSnapshot } from './reviews.js';
import type { UserProfile } from './users.js';

export type PullStatus = 'mergeable' | 'conflict' | 'checking';

/** A pull request: its issue and what only a pull has, git facts as last stored. */
export interface Pull {
  issue: Issue;
  baseBranch: string;
  headBranch: string;
  headRepoId: number;
  /** The head repository's owner for a pull from a fork ("" for a head in the base). */
  headOwnerLogin: string;
  headSha: string;
  mergeBase: string;
  status: PullStatus;
  conflictedFiles: string[];
  additions: number;
  deletions: number;
  changedFiles: number;
  hasMerged: boolean;
  mergedAt?: Date;
  mergedBy?: UserProfile;
  mergeCommitSha: string;
  /** Users whose latest standing review (approved, changes requested, or asked) is on this pull, oldest first. */
  requestedReviewers: UserProfile[];
  /** Teams asked to review, as they were when asked, oldest first. */
  requestedTeams: TeamSnapshot[];
  /** Submitted reviews (not pending, not review requests): Gitea's review_comments. */
  reviewComments: number;
  /** The base branch's head as collaboration last heard it ('' when unknown). */
  baseSha: string;
}

/** A reviewer's latest standing verdict on a pull (reviews.ts latestVerdicts), as a merge's rules read it. */
export interface ReviewVerdict {
  reviewerId: number;
  /** APPROVED, REQUEST_CHANGES or REQUEST_REVIEW. */
  state: string;
  official: boolean;
  stale: boolean;
}

/** The git facts of a head against its base, from the repository service. */
export interface PullGitFacts {
  headSha: string;
  mergeBase: string;
  mergeable: boolean;
  conflictedFiles: string[];
  additions: number;
  deletions: number;
  changedFiles: number;
}

/**
 * A fork as the repository service describes it (its repository, owner and parent). Opaque
 * here: collaboration only hands it on to the events of pulls from that fork.
 */
export type ForkFacts = object;

export interface NewPull extends PullGitFacts {
  /** The base branch's head the facts were computed against ('' when not told). */
  baseSha?: string;
  baseBranch: string;
  headBranch: string;
  headRepoId: number;
  headOwnerLogin: string;
  /** The fork the head is in, as the gateway resolved it (a head in the base has none). */
  headFork?: ForkFacts;
}

export type PullAction = 'opened' | 'closed' | 'reopened' | 'edited' | 'synchronized'
  | 'review_approved' | 'review_rejected' | 'review_comment' | 'review_dismissed' | 'review_requested' | 'review_request_removed';

export interface PullStore {
  /**
   * Takes the repository's next index (the issues' sequence), stores the issue and the pull
   * and ONE opened event in one transaction; undefined when an open pull already has the
   * same head and base (checked under the index row's lock, so two creators cannot both pass).
   */
  create(context: ChangeContext, issue: NewIssue, pull: NewPull): Promise<Pull | undefined>;
  find(repositoryId: number, index: number): Promise<Pull | undefined>;
  /**
   * The pull with the latest verdict of each of its reviewers (reviews.ts latestVerdicts),
   * read in one statement: what a merge's rules are given.
   */
  findWithVerdicts(repositoryId: number, index: number): Promise<{ pull: Pull; verdicts: ReviewVerdict[] } | undefined>;
  findByBranches(repositoryId: number, baseBranch: string, headBranch: string, headRepoId: number): Promise<Pull | undefined>;
  list(context: { repository: ChangeContext['repository'] }, query: IssueQuery): Promise<{ items: Pull[]; total: number }>;
  /** Moves an open pull to another base with its new facts; 'duplicate' when an open pull already has that head and base. */
  changeBase(context: ChangeContext, index: number, baseBranch: string, facts: PullGitFacts): Promise<Pull | 'duplicate' | undefined>;
  /**
   * Closes the pull as merged and publishes its closed event; a pull merged already is
   * answered as it is, unchanged (its merge_commit_sha tells whose merge it was); undefined
   * when there is none.
   */
  markMerged(context: ChangeContext, index: number, merge: { mergeCommitSha: string; headSha: string; mergedById: number }): Promise<Pull | undefined>;
}
