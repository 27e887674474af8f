// The repository service: wiring only (DESIGN.md §2).
import { fileURLToPath } from 'node:url';
import { runService } from '@anvil/kit';
import { identityUserConsumer } from './events/identity-user-consumer.js';
import { repositoryGrpcService } from './grpc/repository-service.js';
import { createDb, type RepositoryDb, type RepositoryTx } from './store/db.js';

await runService<RepositoryDb, RepositoryTx>({
  name: 'repository',
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  createDb,
  grpcServices: ({ db }) => [repositoryGrpcService(db)],
  consumers: ({ log }) => [identityUserConsumer(log)],
});
