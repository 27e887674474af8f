// The identity service: wiring only (DESIGN.md §2).
import { fileURLToPath } from 'node:url';
import { runService, type ServiceDeps } from '@anvil/kit';
import { bootstrapAdmin } from './domain/accounts.js';
import { identitySettings, type Identity } from './domain/context.js';
import { argon2Hasher } from './domain/password.js';
import { DEFAULT_OAUTH2_SETTINGS, type OAuth2Context } from './domain/oauth2.js';
import { identityGrpcService } from './grpc/identity-service.js';
import { oauth2GrpcService } from './grpc/oauth2-service.js';
import { createDb, type IdentityDb, type IdentityTx } from './store/db.js';
import { identityStore } from './store/identity-store.js';
import { oauth2Store } from './store/oauth2-store.js';

let identity: Identity | undefined;
let oauth2: OAuth2Context | undefined;

function identityOf(deps: ServiceDeps<IdentityDb>): Identity {
  const { db, relay, config } = deps;
  identity ??= {
    store: identityStore(db, { onPublished: () => relay.kick() }),
    hasher: argon2Hasher(),
    settings: identitySettings(config.settings),
    oauth2: oauth2Of(deps).store,
  };
  return identity;
}

function oauth2Of(deps: ServiceDeps<IdentityDb>): OAuth2Context {
  oauth2 ??= {
    get identity() { return identityOf(deps); },
    store: oauth2Store(deps.db, { onPublished: () => deps.relay.kick() }),
    settings: DEFAULT_OAUTH2_SETTINGS,
  };
  return oauth2;
}

await runService<IdentityDb, IdentityTx>({
  name: 'identity',
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  createDb,
  grpcServices: (deps) => [identityGrpcService(identityOf(deps)), oauth2GrpcService(oauth2Of(deps))],
  async beforeServing(deps) {
    if (deps.config.admin) await bootstrapAdmin(identityOf(deps), deps.config.admin, deps.log);
  },
});
