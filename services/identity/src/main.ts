// The identity service: wiring only (DESIGN.md §2). One process serves several gRPC
// services (accounts, organizations, OAuth2, GPG keys) over one database, as Gitaly serves many.
import { fileURLToPath } from 'node:url';
import { runService, type ServiceDeps } from '@anvil/kit';
import { bootstrapAdmin } from './domain/accounts.js';
import { identitySettings, type Identity } from './domain/context.js';
import type { GpgKeys } from './domain/gpg-keys.js';
import { oauth2Settings, type OAuth2Context } from './domain/oauth2.js';
import type { Orgs } from './domain/orgs.js';
import { purgeUser } from './domain/orgs-members.js';
import { argon2Hasher } from './domain/password.js';
import { starCountConsumer } from './events/star-count-consumer.js';
import { gpgKeyGrpcService } from './grpc/gpg-key-service.js';
import { identityGrpcService } from './grpc/identity-service.js';
import { oauth2GrpcService } from './grpc/oauth2-service.js';
import { orgGrpcService } from './grpc/org-service.js';
import { createDb, type IdentityDb, type IdentityTx } from './store/db.js';
import { gpgKeyStore } from './store/gpg-key-store.js';
import { identityStore } from './store/identity-store.js';
import { oauth2Store } from './store/oauth2-store.js';
import { orgStore } from './store/org-store.js';

interface Contexts {
  identity: Identity;
  orgs: Orgs;
  oauth2: OAuth2Context;
  gpgKeys: GpgKeys;
}

function contextsOf({ db, relay, config }: ServiceDeps<IdentityDb>): Contexts {
  const onPublished = () => relay.kick();
  const oauth2Tokens = oauth2Store(db, { onPublished });
  const identity: Identity = {
    store: identityStore(db, { onPublished }),
    hasher: argon2Hasher(),
    settings: identitySettings(config.settings),
    // [oauth2] ENABLED = false: OAuth2 access tokens no longer authenticate (as in Gitea).
    oauth2: config.settings.oauth2.ENABLED ? oauth2Tokens : undefined,
  };
  return {
    identity,
    orgs: { store: orgStore(db, { onPublished }), settings: identity.settings },
    oauth2: { identity, store: oauth2Tokens, settings: oauth2Settings(config.settings) },
    gpgKeys: { identity, keys: gpgKeyStore(db) },
  };
}

await runService<IdentityDb, IdentityTx, Contexts>({
  name: 'identity',
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  createDb,
  async beforeServing(deps) {
    const contexts = contextsOf(deps);
    if (deps.config.admin) await bootstrapAdmin(contexts.identity, deps.config.admin, deps.log);
    return contexts;
  },
  grpcServices: (_deps, { identity, orgs, oauth2, gpgKeys }) => [
    identityGrpcService(identity, { purgeUser: (caller, login) => purgeUser(orgs, caller, login) }),
    orgGrpcService(orgs),
    oauth2GrpcService(oauth2),
    gpgKeyGrpcService(gpgKeys),
  ],
  // Counts kept from other services' events (each a durable consumer shared by the replicas).
  consumers: () => [starCountConsumer()],
});
