// The identity service: wiring only (DESIGN.md §2).
import { fileURLToPath } from 'node:url';
import { runService, type ServiceDeps } from '@anvil/kit';
import { bootstrapAdmin } from './domain/accounts.js';
import { identitySettings, type Identity } from './domain/context.js';
import { argon2Hasher } from './domain/password.js';
import { identityGrpcService } from './grpc/identity-service.js';
import { orgGrpcService } from './grpc/org-service.js';
import type { Orgs } from './domain/orgs.js';
import { purgeUser } from './domain/orgs-members.js';
import { createDb, type IdentityDb, type IdentityTx } from './store/db.js';
import { identityStore } from './store/identity-store.js';
import { orgStore } from './store/org-store.js';

let identity: Identity | undefined;

function identityOf({ db, relay, config }: ServiceDeps<IdentityDb>): Identity {
  identity ??= {
    store: identityStore(db, { onPublished: () => relay.kick() }),
    hasher: argon2Hasher(),
    settings: identitySettings(config.settings),
  };
  return identity;
}

let orgs: Orgs | undefined;

function orgsOf(deps: ServiceDeps<IdentityDb>): Orgs {
  orgs ??= { store: orgStore(deps.db, { onPublished: () => deps.relay.kick() }), settings: identityOf(deps).settings };
  return orgs;
}

await runService<IdentityDb, IdentityTx>({
  name: 'identity',
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  createDb,
  grpcServices: (deps) => [
    identityGrpcService(identityOf(deps), { purgeUser: (caller, login) => purgeUser(orgsOf(deps), caller, login) }),
    orgGrpcService(orgsOf(deps)),
  ],
  async beforeServing(deps) {
    if (deps.config.admin) await bootstrapAdmin(identityOf(deps), deps.config.admin, deps.log);
  },
});
