// The collaboration service: wiring only (DESIGN.md §2).
import { fileURLToPath } from 'node:url';
import { runService } from '@anvil/kit';
import { collaborationGrpcService } from './grpc/collaboration-service.js';
import { createDb, type CollaborationDb, type CollaborationTx } from './store/db.js';

await runService<CollaborationDb, CollaborationTx>({
  name: 'collaboration',
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  createDb,
  grpcServices: () => [collaborationGrpcService()],
});
