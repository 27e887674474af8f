// One long-lived gRPC channel per service, created at start (performance.md rule 3).
import { createServiceClient, type Config, type ServiceClient } from '@anvil/kit';
import { loadAnvilGrpc, type identity, type repository } from '@anvil/proto';

export interface ServiceClients {
  identity: ServiceClient<identity.IdentityServiceClient>;
  gpgKeys: ServiceClient<identity.GpgKeyServiceClient>;
  repository: ServiceClient<repository.RepositoryServiceClient>;
  close(): void;
}

export function createServiceClients(config: Config, secret: string): ServiceClients {
  const { anvil } = loadAnvilGrpc();
  const identityClient = createServiceClient<identity.IdentityServiceClient>(anvil.identity.v1.IdentityService, config.addresses.identity, secret);
  // Same identity address: GpgKeyService is served by the identity process.
  const gpgKeysClient = createServiceClient<identity.GpgKeyServiceClient>(anvil.identity.v1.GpgKeyService, config.addresses.identity, secret);
  const repositoryClient = createServiceClient<repository.RepositoryServiceClient>(anvil.repository.v1.RepositoryService, config.addresses.repository, secret);
  return {
    identity: identityClient,
    gpgKeys: gpgKeysClient,
    repository: repositoryClient,
    close() {
      identityClient.close();
      gpgKeysClient.close();
      repositoryClient.close();
    },
  };
}
