// The collaboration service: wiring only (DESIGN.md §2).
import { fileURLToPath } from 'node:url';
import { runService, type ServiceDeps } from '@anvil/kit';
import type { IssueDeps } from './domain/issues.js';
import { identityUserConsumer } from './events/identity-user-consumer.js';
import { repositoryConsumer } from './events/repository-consumer.js';
import { issueGrpcService } from './grpc/issue-service.js';
import { createDb, type CollaborationDb, type CollaborationTx } from './store/db.js';
import { issueStore } from './store/issues.js';

const issueDeps = ({ db, relay }: ServiceDeps<CollaborationDb>): IssueDeps => ({ issues: issueStore(db, { onPublished: () => relay.kick() }) });

await runService<CollaborationDb, CollaborationTx>({
  name: 'collaboration',
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  createDb,
  grpcServices: (deps) => [issueGrpcService(issueDeps(deps))],
  consumers: ({ log }) => [identityUserConsumer(log), repositoryConsumer(log)],
});
