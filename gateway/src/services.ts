// One long-lived gRPC channel per service, created at start (performance.md rule 3).
import { createServiceClient, type Config, type ServiceClient } from '@anvil/kit';
import { loadAnvilGrpc, type identity, type repository } from '@anvil/proto';

export interface ServiceClients {
  identity: ServiceClient<identity.IdentityServiceClient>;
  /** Identity's second service: organizations, members and teams. */
  orgs: ServiceClient<identity.OrgServiceClient>;
  repository: ServiceClient<repository.RepositoryServiceClient>;
  close(): void;
}

export function createServiceClients(config: Config, secret: string): ServiceClients {
  const { anvil } = loadAnvilGrpc();
  const identityClient = createServiceClient<identity.IdentityServiceClient>(anvil.identity.v1.IdentityService, config.addresses.identity, secret);
  const orgsClient = createServiceClient<identity.OrgServiceClient>(anvil.identity.v1.OrgService, config.addresses.identity, secret);
  const repositoryClient = createServiceClient<repository.RepositoryServiceClient>(anvil.repository.v1.RepositoryService, config.addresses.repository, secret);
  return {
    identity: identityClient,
    orgs: orgsClient,
    repository: repositoryClient,
    close() {
      identityClient.close();
      orgsClient.close();
      repositoryClient.close();
    },
  };
}
