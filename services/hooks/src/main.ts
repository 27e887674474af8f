// The hooks service: wiring only (DESIGN.md §2).
import { fileURLToPath } from 'node:url';
import { DomainError, runService, type ServiceDeps } from '@anvil/kit';
import { hooksGrpcService, type HooksServiceDeps } from './grpc/hooks-service.js';
import { createDb, type HooksDb, type HooksTx } from './store/db.js';
import { webhookStore } from './store/webhooks.js';

let contexts: HooksServiceDeps | undefined;

function contextsOf({ db }: ServiceDeps<HooksDb>): HooksServiceDeps {
  contexts ??= {
    webhooks: webhookStore(db),
    tests: { enqueueTest: async () => { throw new DomainError('unavailable', 'test deliveries are not built yet'); } },
  };
  return contexts;
}

await runService<HooksDb, HooksTx>({
  name: 'hooks',
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  createDb,
  grpcServices: (deps) => [hooksGrpcService(contextsOf(deps))],
});
