// The GET operations whose answers the gateway keeps (answers.ts): hot repository reads
// whose every input is a row a trigger announces (the repository and collaboration
// databases: issues, pulls, comments, labels, milestones, reviews, refs, statuses,
// languages, the repository row) or a git object those refs name. An operation belongs
// here only if that holds: one whose answer also depends on something else (the timeline's
// cross references, a compare of two refs in other repositories, notifications) would be
// stale until its TTL, so it stays out. Streamed answers (archives, raw files over 256 KiB)
// stay out too.
export const CACHED_OPERATIONS: ReadonlySet<string> = new Set([
  // Issues and pulls (collaboration).
  'issueListIssues', 'issueGetIssue', 'repoListPinnedIssues',
  'issueGetRepoComments', 'issueGetComment', 'issueGetComments',
  'issueListLabels', 'issueGetLabel', 'issueGetLabels',
  'issueGetMilestonesList', 'issueGetMilestone',
  'repoListPullRequests', 'repoGetPullRequest',
  'repoListPullReviews', 'repoGetPullReview', 'repoGetPullReviewComments',
  // Git reads (repository): refs, commits, trees, contents, tags, statuses, languages.
  'repoGetContentsList', 'repoGetContents', 'repoGetContentsExt', 'repoGetRawFile', 'repoGetRawFileOrLFS',
  'repoListBranches', 'repoGetBranch',
  'repoGetAllCommits', 'repoGetSingleCommit',
  'GetTree', 'GetBlob', 'repoListAllGitRefs', 'repoListGitRefs',
  'repoListTags', 'repoGetTag', 'GetAnnotatedTag',
  'repoGetLanguages', 'repoListTopics',
  'repoListStatuses', 'repoListStatusesByRef', 'repoGetCombinedStatusByRef',
]);

// GET operations whose answer shows nothing of the repository's figures (its size,
// updated_at, counts, language, licenses: what every push, star or issue moves) and whose
// service reads nothing of them in the resolution it is sent: their guards may pass on a
// resolution whose figures changed since (repository-access.ts, `figures`). An operation
// that shows the repository's JSON (repoGet, a pull's base, a combined status) or a figure
// (repoGetLicenses) does not belong here.
export const GUARD_ONLY_OPERATIONS: ReadonlySet<string> = new Set([
  'repoGetContentsList', 'repoGetContents', 'repoGetContentsExt', 'repoGetRawFile', 'repoGetRawFileOrLFS',
  'repoListBranches', 'repoGetBranch',
  'repoGetAllCommits', 'repoGetSingleCommit',
  'GetTree', 'GetBlob', 'repoListAllGitRefs', 'repoListGitRefs',
  'repoListTags', 'repoGetTag', 'GetAnnotatedTag',
  'repoGetLanguages',
]);

// GET operations whose answer is made of the repository's resolution and the caller alone
// (the repository's JSON): nothing to drop beyond the resolution itself, so they are not
// kept here but only in the answer shortcuts (answer-shortcuts.ts), which hold them while
// the gateway still holds that very resolution.
export const RESOLUTION_OPERATIONS: ReadonlySet<string> = new Set(['repoGet']);
