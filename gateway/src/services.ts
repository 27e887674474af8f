// One long-lived gRPC channel per service, created at start (performance.md rule 3).
import { createServiceClient, type Config, type ServiceClient } from '@anvil/kit';
import { loadAnvilGrpc, type identity, type repository } from '@anvil/proto';

export interface ServiceClients {
  identity: ServiceClient<identity.IdentityServiceClient>;
  /** identity's OAuth2Service (grpc-js' global subchannel pool shares the connection with `identity`). */
  oauth2: ServiceClient<identity.OAuth2ServiceClient>;
  repository: ServiceClient<repository.RepositoryServiceClient>;
  close(): void;
}

export function createServiceClients(config: Config, secret: string): ServiceClients {
  const { anvil } = loadAnvilGrpc();
  const identityClient = createServiceClient<identity.IdentityServiceClient>(anvil.identity.v1.IdentityService, config.addresses.identity, secret);
  const oauth2Client = createServiceClient<identity.OAuth2ServiceClient>(anvil.identity.v1.OAuth2Service, config.addresses.identity, secret);
  const repositoryClient = createServiceClient<repository.RepositoryServiceClient>(anvil.repository.v1.RepositoryService, config.addresses.repository, secret);
  return {
    identity: identityClient,
    oauth2: oauth2Client,
    repository: repositoryClient,
    close() {
      identityClient.close();
      oauth2Client.close();
      repositoryClient.close();
    },
  };
}
