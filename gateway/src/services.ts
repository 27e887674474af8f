// One long-lived gRPC channel per service, created at start (performance.md rule 3). The
// identity process serves several gRPC services; their clients share one connection
// through grpc-js' global subchannel pool (same address, same options).
import { createServiceClient, isReconnecting, type Config, type ServiceClient, type ServiceName } from '@anvil/kit';
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
  /** The services this gateway cannot call right now: a channel to them waits to reconnect (isReconnecting). */
  reconnecting(): ServiceName[];
  close(): void;
}

export function createServiceClients(config: Config, secret: string): ServiceClients {
  const { anvil } = loadAnvilGrpc();
  const byService: Array<[ServiceName, ServiceClient<unknown>]> = [];
  const client = <C>(service: ServiceName, Ctor: Parameters<typeof createServiceClient>[0]): ServiceClient<C> => {
    const made = createServiceClient<C>(Ctor, config.addresses[service], secret);
    byService.push([service, made as ServiceClient<unknown>]);
    return made;
  };
  const clients = {
    identity: client<identity.IdentityServiceClient>('identity', anvil.identity.v1.IdentityService),
    orgs: client<identity.OrgServiceClient>('identity', anvil.identity.v1.OrgService),
    oauth2: client<identity.OAuth2ServiceClient>('identity', anvil.identity.v1.OAuth2Service),
    gpgKeys: client<identity.GpgKeyServiceClient>('identity', anvil.identity.v1.GpgKeyService),
    repository: client<repository.RepositoryServiceClient>('repository', anvil.repository.v1.RepositoryService),
    teamAccess: client<repository.TeamAccessServiceClient>('repository', anvil.repository.v1.TeamAccessService),
    tags: client<repository.TagServiceClient>('repository', anvil.repository.v1.TagService),
    languages: client<repository.LanguageServiceClient>('repository', anvil.repository.v1.LanguageService),
    topics: client<repository.TopicServiceClient>('repository', anvil.repository.v1.TopicService),
    stars: client<repository.StarServiceClient>('repository', anvil.repository.v1.StarService),
    avatars: client<repository.RepositoryAvatarServiceClient>('repository', anvil.repository.v1.RepositoryAvatarService),
    branches: client<repository.BranchServiceClient>('repository', anvil.repository.v1.BranchService),
    templates: client<repository.TemplateServiceClient>('repository', anvil.repository.v1.TemplateService),
    unadopted: client<repository.UnadoptedServiceClient>('repository', anvil.repository.v1.UnadoptedService),
    commitStatuses: client<repository.CommitStatusServiceClient>('repository', anvil.repository.v1.CommitStatusService),
    gitObjects: client<repository.GitObjectServiceClient>('repository', anvil.repository.v1.GitObjectService),
    commits: client<repository.CommitServiceClient>('repository', anvil.repository.v1.CommitService),
    contents: client<repository.ContentServiceClient>('repository', anvil.repository.v1.ContentService),
    pullGit: client<repository.PullGitServiceClient>('repository', anvil.repository.v1.PullGitService),
    migrations: client<repository.MigrationServiceClient>('repository', anvil.repository.v1.MigrationService),
    pushMirrors: client<repository.PushMirrorServiceClient>('repository', anvil.repository.v1.PushMirrorService),
    hooks: client<hooks.HooksServiceClient>('hooks', anvil.hooks.v1.HooksService),
    issues: client<collaboration.IssueServiceClient>('collaboration', anvil.collaboration.v1.IssueService),
    labels: client<collaboration.LabelServiceClient>('collaboration', anvil.collaboration.v1.LabelService),
    milestones: client<collaboration.MilestoneServiceClient>('collaboration', anvil.collaboration.v1.MilestoneService),
    comments: client<collaboration.CommentServiceClient>('collaboration', anvil.collaboration.v1.CommentService),
    reactions: client<collaboration.ReactionServiceClient>('collaboration', anvil.collaboration.v1.ReactionService),
    subscriptions: client<collaboration.SubscriptionServiceClient>('collaboration', anvil.collaboration.v1.SubscriptionService),
    trackedTimes: client<collaboration.TrackedTimeServiceClient>('collaboration', anvil.collaboration.v1.TrackedTimeService),
    pulls: client<collaboration.PullServiceClient>('collaboration', anvil.collaboration.v1.PullService),
    reviews: client<collaboration.ReviewServiceClient>('collaboration', anvil.collaboration.v1.ReviewService),
    watches: client<collaboration.WatchServiceClient>('collaboration', anvil.collaboration.v1.WatchService),
    notifications: client<collaboration.NotificationServiceClient>('collaboration', anvil.collaboration.v1.NotificationService),
  };
  return {
    ...clients,
    reconnecting: () => [...new Set(byService.filter(([, made]) => isReconnecting(made)).map(([service]) => service))],
    close() {
      for (const client of Object.values(clients)) client.close();
    },
  };
}
