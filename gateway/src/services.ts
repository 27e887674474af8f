// One long-lived gRPC channel per service, created at start (performance.md rule 3). The
// identity process serves several gRPC services; their clients share one connection
// through grpc-js' global subchannel pool (same address, same options).
import { createServiceClient, type Config, type ServiceClient } from '@anvil/kit';
import { loadAnvilGrpc, type collaboration, type hooks, type identity, type repository } from '@anvil/proto';

export interface ServiceClients {
  identity: ServiceClient<identity.IdentityServiceClient>;
  orgs: ServiceClient<identity.OrgServiceClient>;
  oauth2: ServiceClient<identity.OAuth2ServiceClient>;
  gpgKeys: ServiceClient<identity.GpgKeyServiceClient>;
  repository: ServiceClient<repository.RepositoryServiceClient>;
  teamAccess: ServiceClient<repository.TeamAccessServiceClient>;
  tags: ServiceClient<repository.TagServiceClient>;
  languages: ServiceClient<repository.LanguageServiceClient>;
  topics: ServiceClient<repository.TopicServiceClient>;
  stars: ServiceClient<repository.StarServiceClient>;
  avatars: ServiceClient<repository.RepositoryAvatarServiceClient>;
  branches: ServiceClient<repository.BranchServiceClient>;
  templates: ServiceClient<repository.TemplateServiceClient>;
  unadopted: ServiceClient<repository.UnadoptedServiceClient>;
  commitStatuses: ServiceClient<repository.CommitStatusServiceClient>;
  gitObjects: ServiceClient<repository.GitObjectServiceClient>;
  commits: ServiceClient<repository.CommitServiceClient>;
  contents: ServiceClient<repository.ContentServiceClient>;
  pullGit: ServiceClient<repository.PullGitServiceClient>;
  migrations: ServiceClient<repository.MigrationServiceClient>;
  pushMirrors: ServiceClient<repository.PushMirrorServiceClient>;
  hooks: ServiceClient<hooks.HooksServiceClient>;
  issues: ServiceClient<collaboration.IssueServiceClient>;
  labels: ServiceClient<collaboration.LabelServiceClient>;
  milestones: ServiceClient<collaboration.MilestoneServiceClient>;
  comments: ServiceClient<collaboration.CommentServiceClient>;
  reactions: ServiceClient<collaboration.ReactionServiceClient>;
  subscriptions: ServiceClient<collaboration.SubscriptionServiceClient>;
  trackedTimes: ServiceClient<collaboration.TrackedTimeServiceClient>;
  pulls: ServiceClient<collaboration.PullServiceClient>;
  reviews: ServiceClient<collaboration.ReviewServiceClient>;
  watches: ServiceClient<collaboration.WatchServiceClient>;
  notifications: ServiceClient<collaboration.NotificationServiceClient>;
  close(): void;
}

export function createServiceClients(config: Config, secret: string): ServiceClients {
  const { anvil } = loadAnvilGrpc();
  const { identity: identityAddress, repository: repositoryAddress, collaboration: collaborationAddress } = config.addresses;
  const clients = {
    identity: createServiceClient<identity.IdentityServiceClient>(anvil.identity.v1.IdentityService, identityAddress, secret),
    orgs: createServiceClient<identity.OrgServiceClient>(anvil.identity.v1.OrgService, identityAddress, secret),
    oauth2: createServiceClient<identity.OAuth2ServiceClient>(anvil.identity.v1.OAuth2Service, identityAddress, secret),
    gpgKeys: createServiceClient<identity.GpgKeyServiceClient>(anvil.identity.v1.GpgKeyService, identityAddress, secret),
    repository: createServiceClient<repository.RepositoryServiceClient>(anvil.repository.v1.RepositoryService, repositoryAddress, secret),
    teamAccess: createServiceClient<repository.TeamAccessServiceClient>(anvil.repository.v1.TeamAccessService, repositoryAddress, secret),
    tags: createServiceClient<repository.TagServiceClient>(anvil.repository.v1.TagService, repositoryAddress, secret),
    languages: createServiceClient<repository.LanguageServiceClient>(anvil.repository.v1.LanguageService, repositoryAddress, secret),
    topics: createServiceClient<repository.TopicServiceClient>(anvil.repository.v1.TopicService, repositoryAddress, secret),
    stars: createServiceClient<repository.StarServiceClient>(anvil.repository.v1.StarService, repositoryAddress, secret),
    avatars: createServiceClient<repository.RepositoryAvatarServiceClient>(anvil.repository.v1.RepositoryAvatarService, repositoryAddress, secret),
    branches: createServiceClient<repository.BranchServiceClient>(anvil.repository.v1.BranchService, repositoryAddress, secret),
    templates: createServiceClient<repository.TemplateServiceClient>(anvil.repository.v1.TemplateService, repositoryAddress, secret),
    unadopted: createServiceClient<repository.UnadoptedServiceClient>(anvil.repository.v1.UnadoptedService, repositoryAddress, secret),
    commitStatuses: createServiceClient<repository.CommitStatusServiceClient>(anvil.repository.v1.CommitStatusService, repositoryAddress, secret),
    gitObjects: createServiceClient<repository.GitObjectServiceClient>(anvil.repository.v1.GitObjectService, repositoryAddress, secret),
    commits: createServiceClient<repository.CommitServiceClient>(anvil.repository.v1.CommitService, repositoryAddress, secret),
    contents: createServiceClient<repository.ContentServiceClient>(anvil.repository.v1.ContentService, repositoryAddress, secret),
    pullGit: createServiceClient<repository.PullGitServiceClient>(anvil.repository.v1.PullGitService, repositoryAddress, secret),
    migrations: createServiceClient<repository.MigrationServiceClient>(anvil.repository.v1.MigrationService, repositoryAddress, secret),
    pushMirrors: createServiceClient<repository.PushMirrorServiceClient>(anvil.repository.v1.PushMirrorService, repositoryAddress, secret),
    hooks: createServiceClient<hooks.HooksServiceClient>(anvil.hooks.v1.HooksService, config.addresses.hooks, secret),
    issues: createServiceClient<collaboration.IssueServiceClient>(anvil.collaboration.v1.IssueService, collaborationAddress, secret),
    labels: createServiceClient<collaboration.LabelServiceClient>(anvil.collaboration.v1.LabelService, collaborationAddress, secret),
    milestones: createServiceClient<collaboration.MilestoneServiceClient>(anvil.collaboration.v1.MilestoneService, collaborationAddress, secret),
    comments: createServiceClient<collaboration.CommentServiceClient>(anvil.collaboration.v1.CommentService, collaborationAddress, secret),
    reactions: createServiceClient<collaboration.ReactionServiceClient>(anvil.collaboration.v1.ReactionService, collaborationAddress, secret),
    subscriptions: createServiceClient<collaboration.SubscriptionServiceClient>(anvil.collaboration.v1.SubscriptionService, collaborationAddress, secret),
    trackedTimes: createServiceClient<collaboration.TrackedTimeServiceClient>(anvil.collaboration.v1.TrackedTimeService, collaborationAddress, secret),
    pulls: createServiceClient<collaboration.PullServiceClient>(anvil.collaboration.v1.PullService, collaborationAddress, secret),
    reviews: createServiceClient<collaboration.ReviewServiceClient>(anvil.collaboration.v1.ReviewService, collaborationAddress, secret),
    watches: createServiceClient<collaboration.WatchServiceClient>(anvil.collaboration.v1.WatchService, collaborationAddress, secret),
    notifications: createServiceClient<collaboration.NotificationServiceClient>(anvil.collaboration.v1.NotificationService, collaborationAddress, secret),
  };
  return {
    ...clients,
    close() {
      for (const client of Object.values(clients)) client.close();
    },
  };
}
