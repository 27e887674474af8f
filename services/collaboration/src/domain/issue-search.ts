// GET /repos/issues/search (Gitea's SearchIssues): issues across every repository the caller
// may see. The gateway asks the repository service once for those repositories and passes
// their ids; the search then runs as one SQL statement over all of them, never once per
// repository (Gitea once took 54 s doing that). Labels and milestones are matched by name
// (an issue with any of them matches; names nothing has are dropped); "assigned",
// "created", "mentioned", "review_requested" and "reviewed" mean the signed-in caller.
import type { Caller } from '@anvil/kit';
import type { Issue, IssueQuery } from './issue-store.js';

/** A repository's issue query over many repositories, with the people filters only the search has. */
export interface IssueSearch extends IssueQuery {
  repositoryIds: number[];
  posterLogin?: string;
  reviewRequestedId?: number;
  reviewedId?: number;
}

export interface IssueSearchStore {
  /** A page of matching issues, newest first, and how many match: one statement. */
  search(query: IssueSearch): Promise<{ items: Issue[]; total: number }>;
}

export interface SearchDeps {
  issueSearch: IssueSearchStore;
}

export interface SearchIssuesInput {
  repositoryIds: number[];
  state: string;
  type: string;
  labels: string[];
  milestones: string[];
  q: string;
  since?: Date;
  before?: Date;
  assigned: boolean;
  created: boolean;
  mentioned: boolean;
  reviewRequested: boolean;
  reviewed: boolean;
  createdBy: string;
  offset: number;
  limit: number;
}

const names = (values: string[]) => [...new Set(values.map((v) => v.trim()).filter(Boolean))];

export async function searchIssues(deps: SearchDeps, caller: Caller, input: SearchIssuesInput): Promise<{ items: Issue[]; total: number }> {
  const repositoryIds = [...new Set(input.repositoryIds.map(Number).filter((id) => id > 0))];
  if (!repositoryIds.length) return { items: [], total: 0 };
  // The "you" filters apply only to a signed-in caller (Gitea ignores them otherwise).
  const you = caller.userId > 0 ? caller.userId : undefined;
  // A NUL byte in the keyword makes Gitea drop it.
  const q = input.q.includes('\u0000') ? '' : input.q.trim();
  return deps.issueSearch.search({
    repositoryIds,
    state: input.state === 'closed' || input.state === 'all' ? input.state : 'open',
    type: input.type === 'issues' || input.type === 'pulls' ? input.type : 'all',
    labels: names(input.labels), milestones: names(input.milestones), q, since: input.since, before: input.before,
    posterId: input.created ? you : undefined,
    posterLogin: input.createdBy.trim() || undefined,
    assigneeId: input.assigned ? you : undefined,
    mentionedId: input.mentioned ? you : undefined,
    reviewRequestedId: input.reviewRequested ? you : undefined,
    reviewedId: input.reviewed ? you : undefined,
    offset: input.offset, limit: input.limit,
  });
}
