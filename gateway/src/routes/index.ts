// Every /api/v1 route, area by area (one file per API area, as Gitea's routers/api/v1).
import type { Route } from '../http/route.js';
import { adminRoutes } from './admin.js';
import { adminUnadoptedRoutes } from './admin-unadopted.js';
import { templateRoutes } from './templates.js';
import { collaboratorRoutes } from './collaborators.js';
import { repoBranchProtectionRoutes } from './repo-branch-protections.js';
import { repoBranchRoutes } from './repo-branches.js';
import { repoContentRoutes } from './repo-contents.js';
import { gpgKeyRoutes } from './gpg-keys.js';
import { hookRoutes } from './hooks.js';
import { repoHookTestRoutes } from './repo-hook-tests.js';
import { miscRoutes } from './misc.js';
import { oauth2AppRoutes } from './oauth2-apps.js';
import { orgRepoRoutes } from './org-repos.js';
import { orgsRoutes } from './orgs.js';
import { repoRoutes } from './repos.js';
import { repoArchiveRoutes } from './repo-archives.js';
import { repoLanguageRoutes } from './repo-languages.js';
import { repoTopicRoutes } from './repo-topics.js';
import { repoTagRoutes } from './repo-tags.js';
import { repoStatusRoutes } from './repo-statuses.js';
import { repoGitRoutes } from './repo-git.js';
import { repoRawRoutes } from './repo-raw.js';
import { repoCommitRoutes } from './repo-commits.js';
import { repoCommentRoutes } from './repo-comments.js';
import { repoIssueRoutes } from './repo-issues.js';
import { issueSearchRoutes } from './issue-search.js';
import { assigneeRoutes } from './assignees.js';
import { issueDependencyRoutes } from './issue-dependencies.js';
import { repoReactionRoutes } from './repo-reactions.js';
import { repoSubscriptionRoutes } from './repo-subscriptions.js';
import { repoTrackedTimeRoutes } from './repo-tracked-times.js';
import { userTimeRoutes } from './user-times.js';
import { repoWatchRoutes } from './repo-watches.js';
import { repoStarRoutes } from './repo-stars.js';
import { repoAvatarRoutes } from './repo-avatars.js';
import { notificationRoutes } from './notifications.js';
import { repoLabelRoutes } from './repo-labels.js';
import { orgLabelRoutes } from './org-labels.js';
import { repoMilestoneRoutes } from './repo-milestones.js';
import { repoPullRoutes } from './repo-pulls.js';
import { repoForkRoutes } from './repo-forks.js';
import { repoPullReviewRoutes } from './repo-pull-reviews.js';
import { repoMigrateRoutes } from './repo-migrate.js';
import { repoPushMirrorRoutes } from './repo-push-mirrors.js';
import { teamsRoutes } from './teams.js';
import { userRoutes } from './user.js';
import { usersRoutes } from './users.js';
import { userFollowRoutes } from './user-follows.js';

export const apiRoutes: readonly Route[] = [
  ...miscRoutes, ...userRoutes, ...usersRoutes, ...userFollowRoutes, ...gpgKeyRoutes, ...adminRoutes, ...oauth2AppRoutes, ...orgsRoutes, ...teamsRoutes,
  // Before `/repos/:owner/:repo`, so `/repos/issues/search` is never taken for a repository.
  ...issueSearchRoutes,
  ...repoRoutes, ...orgRepoRoutes, ...collaboratorRoutes, ...repoForkRoutes,
  ...repoTagRoutes, ...repoArchiveRoutes, ...repoLanguageRoutes, ...repoTopicRoutes, ...repoAvatarRoutes,
  ...repoBranchRoutes, ...repoBranchProtectionRoutes,
  ...templateRoutes, ...adminUnadoptedRoutes,
  ...repoStatusRoutes,
  ...repoGitRoutes, ...repoRawRoutes,
  ...repoCommitRoutes,
  ...repoContentRoutes,
  ...hookRoutes, ...repoHookTestRoutes,
  // Comments first: `/issues/comments` must not be taken for an issue number.
  ...repoCommentRoutes, ...assigneeRoutes, ...repoIssueRoutes, ...issueDependencyRoutes, ...repoLabelRoutes, ...repoMilestoneRoutes, ...repoReactionRoutes, ...repoSubscriptionRoutes, ...orgLabelRoutes,
  ...repoWatchRoutes, ...repoStarRoutes, ...notificationRoutes,
  ...repoPullReviewRoutes, ...repoPullRoutes,
  ...repoMigrateRoutes, ...repoPushMirrorRoutes,
  ...repoTrackedTimeRoutes, ...userTimeRoutes,
];
