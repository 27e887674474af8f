// The hooks service: wiring only (DESIGN.md §2).
import { fileURLToPath } from 'node:url';
import { runService } from '@anvil/kit';
import { hooksGrpcService } from './grpc/hooks-service.js';
import { createDb, type HooksDb, type HooksTx } from './store/db.js';

await runService<HooksDb, HooksTx>({
  name: 'hooks',
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  createDb,
  grpcServices: () => [hooksGrpcService()],
});
