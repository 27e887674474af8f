// Integration test: identity over real gRPC, PostgreSQL and NATS JetStream. Needs PostgreSQL
// (ANVIL_TEST_PG_URL, default the local trust-auth server) and NATS with JetStream (ANVIL_TEST_NATS_URL,
// default nats://127.0.0.1:4222). Each run gets a database and an events namespace of its
// own, removed afterwards.
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { createHash } from 'node:crypto';
import {
  ANONYMOUS, SYSTEM, prismaAdapter,
  type Caller, type DomainError, type Logger, type OutboxRelay, type ServiceClient,
} from '@anvil/kit';
import { loadAnvilGrpc, type identity } from '@anvil/proto';
import { bootstrapAdmin } from '../src/domain/accounts.js';
import type { Identity } from '../src/domain/context.js';
import { argon2Hasher } from '../src/domain/password.js';
import { identityGrpcService } from '../src/grpc/identity-service.js';
import type { IdentityDb } from '../src/store/db.js';
import { PrismaClient } from '../src/store/generated/client.js';
import { identityStore } from '../src/store/identity-store.js';
import { failureOf as failure } from './support/fixtures.js';
import { TEST_SETTINGS } from './support/memory-store.js';
import { identityTestbed, type IdentityTestbed, type IdentityTestEvents } from './support/testbed.js';

let tb: IdentityTestbed;
let log: Logger;
let databaseUrl: string;
let db: IdentityDb;
let relay: OutboxRelay;
let eventOf: IdentityTestEvents['eventOf'];
let ctx: Identity;
let client: ServiceClient<identity.IdentityServiceClient>;

// ---- helpers ---------------------------------------------------------------------------

const asCaller = (user: identity.User): Caller =>
  ({ userId: user.id, login: user.login, isAdmin: user.is_admin, restricted: user.restricted, scopes: ['all'] });

let counter = 0;
async function newUser(extra: Partial<identity.CreateUserRequestInput> = {}): Promise<identity.User> {
  const login = `user${++counter}_${tb.runId.slice(-4)}`;
  return client.CreateUser({ login, email: `${login}@example.com`, password: `pw-${login}-secret`, ...extra }, { caller: SYSTEM });
}

// ---- setup -----------------------------------------------------------------------------

beforeAll(async () => {
  tb = await identityTestbed('users');
  ({ log, databaseUrl, db } = tb);
  const events = await tb.events();
  ({ relay, eventOf } = events);
  ctx = { store: identityStore(db, { onPublished: events.onPublished }), hasher: argon2Hasher(), settings: TEST_SETTINGS };
  const grpc = await tb.serve([identityGrpcService(ctx)]);
  client = grpc.client<identity.IdentityServiceClient>(loadAnvilGrpc().anvil.identity.v1.IdentityService);
}, 30_000);

afterAll(() => tb?.close(), 30_000);

// ---- behaviour -------------------------------------------------------------------------

describe('identity service', () => {
  it('publishes identity.user.created through the outbox when a user is created', async () => {
    const user = await newUser({ full_name: 'Ada Lovelace', visibility: 'VISIBILITY_LIMITED' });

    const event = await eventOf('identity.user.created', (p) => (p.user as identity.User).id === user.id);

    expect(event.type).toBe('anvil.identity.v1.UserCreated');
    expect(event.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(event.payload.user).toMatchObject({ login: user.login, full_name: 'Ada Lovelace', visibility: 'VISIBILITY_LIMITED', type: 'user', active: true });
    const rows = await db.outboxEvent.findMany({ where: { id: event.id } });
    expect(rows).toHaveLength(1);
  });

  it('authenticates with a created token until the token is deleted, announcing the revocation', async () => {
    const user = await newUser();
    const created = await client.CreateAccessToken({ user_id: user.id, name: 'ci', scopes: ['write:repository', 'read:repository'] }, { caller: asCaller(user) });
    expect(created.token).toMatch(/^[0-9a-f]{40}$/);
    expect(created.scopes).toEqual(['write:repository']);

    const reply = await client.Authenticate({ token: created.token }, { caller: ANONYMOUS });
    const tokenHash = createHash('sha256').update(created.token).digest('hex');
    expect(reply).toMatchObject({ user: { id: user.id, login: user.login }, scopes: ['write:repository'], method: 'token', token_hash: tokenHash });

    const listed = await client.ListAccessTokens({ user_id: user.id, page: { page: 1, limit: 10 } }, { caller: asCaller(user) });
    expect(listed.total).toBe(1);
    expect(listed.tokens[0]).toMatchObject({ name: 'ci', token: '', token_last_eight: created.token.slice(-8) });

    await client.DeleteAccessToken({ user_id: user.id, id_or_name: 'ci' }, { caller: asCaller(user) });

    const revoked = await eventOf('identity.credential.revoked', (p) => p.token_hash === tokenHash);
    expect(revoked).toMatchObject({ type: 'anvil.identity.v1.CredentialRevoked', payload: { user_id: user.id, token_hash: tokenHash } });
    expect(await failure(client.Authenticate({ token: created.token }, { caller: ANONYMOUS }))).toMatchObject({ kind: 'unauthenticated' });
  });

  it('refuses a second token with the same name for the same user', async () => {
    const user = await newUser();
    await client.CreateAccessToken({ user_id: user.id, name: 'dup', scopes: ['all'] }, { caller: asCaller(user) });

    expect(await failure(client.CreateAccessToken({ user_id: user.id, name: 'dup', scopes: ['all'] }, { caller: asCaller(user) }))).toEqual({
      kind: 'already_exists', reason: 'token_name_taken', message: 'access token name has been used already',
    });
  });

  it('refuses a login that exists in another case', async () => {
    const user = await newUser();

    expect(await failure(client.CreateUser(
      { login: user.login.toUpperCase(), email: 'someone-else@example.com', password: 'long-enough-pw' }, { caller: SYSTEM },
    ))).toEqual({ kind: 'already_exists', reason: 'user_already_exists', message: `user already exists [name: ${user.login.toUpperCase()}]` });
  });

  it('refuses two concurrent creations of one login, taking exactly one', async () => {
    const login = `race_${tb.runId.slice(-4)}`;
    const attempts = await Promise.allSettled([0, 1, 2].map((i) =>
      client.CreateUser({ login, email: `${login}${i}@example.com`, password: 'long-enough-pw' }, { caller: SYSTEM })));

    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    for (const a of attempts) if (a.status === 'rejected') expect((a.reason as DomainError).reason).toBe('user_already_exists');
  });

  it('authenticates with the right password and refuses a wrong one as unauthenticated', async () => {
    const user = await newUser({ password: 'correct horse battery' });

    const ok = await client.Authenticate({ basic: { username: user.login, password: 'correct horse battery' } }, { caller: ANONYMOUS });
    expect(ok).toMatchObject({ user: { id: user.id }, scopes: ['all'], method: 'password', token_hash: '' });
    expect(await failure(client.Authenticate({ basic: { username: user.login, password: 'wrong horse battery' } }, { caller: ANONYMOUS })))
      .toEqual({ kind: 'unauthenticated', reason: 'unauthenticated', message: 'invalid username, password or token' });
    expect(await failure(client.Authenticate({ basic: { username: 'nobody-here', password: 'whatever' } }, { caller: ANONYMOUS })))
      .toMatchObject({ kind: 'unauthenticated' });
  });

  it('shows anonymous searchers public users only, signed-in searchers limited users too', async () => {
    const tag = `vis${tb.runId.slice(-4)}`;
    const pub = await newUser({ full_name: `${tag} public` });
    const lim = await newUser({ full_name: `${tag} limited`, visibility: 'VISIBILITY_LIMITED' });
    const priv = await newUser({ full_name: `${tag} private`, visibility: 'VISIBILITY_PRIVATE' });
    const search = (caller: Caller) => client.SearchUsers({ q: tag.toUpperCase(), page: { page: 1, limit: 10 } }, { caller });

    const anonymous = await search(ANONYMOUS);
    const signedIn = await search(asCaller(pub));
    const self = await search(asCaller(priv));

    expect([anonymous.users.map((u) => u.id), anonymous.total]).toEqual([[pub.id], 1]);
    expect([signedIn.users.map((u) => u.id), signedIn.total]).toEqual([[pub.id, lim.id], 2]);
    expect(self.users.map((u) => u.id)).toEqual([pub.id, lim.id, priv.id]);
  });

  it('matches search keywords literally, wildcards included', async () => {
    const user = await newUser({ full_name: '100%_sure' });

    const literal = await client.SearchUsers({ q: '100%_', page: { page: 1, limit: 10 } }, { caller: SYSTEM });
    const wildcard = await client.SearchUsers({ q: '%', page: { page: 1, limit: 50 } }, { caller: SYSTEM });

    expect(literal.users.map((u) => u.id)).toEqual([user.id]);
    expect(wildcard.users.map((u) => u.id)).toEqual([user.id]);
  });

  it('loads a batch of users by ids and logins in one call', async () => {
    const a = await newUser();
    const b = await newUser();

    const { users } = await client.GetUsers({ ids: [a.id, 987654321], logins: [b.login.toUpperCase()] }, { caller: SYSTEM });

    expect(users.map((u) => u.login)).toEqual([a.login, b.login]);
  });

  it('adds and deletes e-mail addresses, keeping the primary one', async () => {
    const user = await newUser();
    const added = await client.AddEmails({ user_id: user.id, emails: [`extra.${user.login}@example.org`] }, { caller: asCaller(user) });
    expect(added.emails.map((e) => [e.email, e.primary, e.verified, e.username])).toEqual([
      [user.email, true, true, user.login], [`extra.${user.login}@example.org`, false, true, user.login],
    ]);

    expect(await failure(client.DeleteEmails({ user_id: user.id, emails: [user.email] }, { caller: asCaller(user) })))
      .toMatchObject({ reason: 'primary_email_cannot_delete' });
    await client.DeleteEmails({ user_id: user.id, emails: [`extra.${user.login}@example.org`] }, { caller: asCaller(user) });
    expect((await client.ListEmails({ user_id: user.id }, { caller: asCaller(user) })).emails).toHaveLength(1);
  });

  it('revokes a user\'s credentials when an administrator prohibits their login, then refuses them', async () => {
    const user = await newUser({ password: 'prohibited-pw' });

    await client.EditUser({ login: user.login, prohibit_login: true }, { caller: SYSTEM });

    await eventOf('identity.credential.revoked', (p) => p.user_id === user.id && p.token_hash === '');
    await eventOf('identity.user.updated', (p) => (p.user as identity.User).id === user.id && (p.user as identity.User).prohibit_login);
    expect(await failure(client.Authenticate({ basic: { username: user.login, password: 'prohibited-pw' } }, { caller: ANONYMOUS })))
      .toMatchObject({ kind: 'forbidden', reason: 'user_prohibit_login' });
  });

  it('deletes a user, announcing the deletion', async () => {
    const user = await newUser();

    await client.DeleteUser({ login: user.login }, { caller: SYSTEM });

    await eventOf('identity.user.deleted', (p) => p.user_id === user.id && p.login === user.login);
    expect(await failure(client.GetUser({ id: user.id }, { caller: SYSTEM }))).toMatchObject({ kind: 'not_found' });
  });

  it('lets replicas bootstrap the same administrator together', async () => {
    const admin = { username: `admin_${tb.runId.slice(-4)}`, password: 'admin-password', email: `admin_${tb.runId.slice(-4)}@example.com` };
    const replicas = [0, 1, 2].map(() => ({ ...ctx, store: identityStore(db, { onPublished: () => relay.kick() }) }));

    const outcomes = await Promise.all(replicas.map((replica) => bootstrapAdmin(replica, admin, log)));

    expect(outcomes.filter((o) => o === 'created')).toHaveLength(1);
    expect(await client.GetUser({ login: admin.username }, { caller: SYSTEM })).toMatchObject({ is_admin: true, active: true });
  });

  it('resolves a token to its user in one SQL statement', async () => {
    const user = await newUser();
    const created = await client.CreateAccessToken({ user_id: user.id, name: 'hot', scopes: ['all'] }, { caller: asCaller(user) });
    const logged = new PrismaClient({ adapter: prismaAdapter(databaseUrl, 1), log: [{ emit: 'event', level: 'query' }] });
    const queries: string[] = [];
    logged.$on('query', (e) => queries.push(e.query));
    try {
      const found = await identityStore(logged).credentialByTokenHash(createHash('sha256').update(created.token).digest('hex'));
      expect(found?.user.id).toBe(user.id);
      expect(queries.filter((q) => !/^(BEGIN|COMMIT)/i.test(q))).toHaveLength(1);
    } finally {
      await logged.$disconnect();
    }
  });
});
