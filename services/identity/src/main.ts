// The identity service: wiring only (DESIGN.md §2).
import { fileURLToPath } from 'node:url';
import { runService, type ServiceDeps } from '@anvil/kit';
import { bootstrapAdmin } from './domain/accounts.js';
import { identitySettings, type Identity } from './domain/context.js';
import { argon2Hasher } from './domain/password.js';
import type { GpgKeys } from './domain/gpg-keys.js';
import { gpgKeyGrpcService } from './grpc/gpg-key-service.js';
import { identityGrpcService } from './grpc/identity-service.js';
import { createDb, type IdentityDb, type IdentityTx } from './store/db.js';
import { gpgKeyStore } from './store/gpg-key-store.js';
import { identityStore } from './store/identity-store.js';

let identity: Identity | undefined;

function identityOf({ db, relay, config }: ServiceDeps<IdentityDb>): Identity {
  identity ??= {
    store: identityStore(db, { onPublished: () => relay.kick() }),
    hasher: argon2Hasher(),
    settings: identitySettings(config.settings),
  };
  return identity;
}

function gpgKeysOf(deps: ServiceDeps<IdentityDb>): GpgKeys {
  return { identity: identityOf(deps), keys: gpgKeyStore(deps.db) };
}

await runService<IdentityDb, IdentityTx>({
  name: 'identity',
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  createDb,
  grpcServices: (deps) => [identityGrpcService(identityOf(deps)), gpgKeyGrpcService(gpgKeysOf(deps))],
  async beforeServing(deps) {
    if (deps.config.admin) await bootstrapAdmin(identityOf(deps), deps.config.admin, deps.log);
  },
});
