// Integration test: organizations and teams over real gRPC, PostgreSQL and NATS JetStream.
// Each change and its events commit together through the outbox; refused changes leave
// nothing behind. Own database and events namespace per run, removed afterwards.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SYSTEM, type Caller, type DomainError, type ServiceClient } from '@anvil/kit';
import { loadAnvilGrpc, type identity } from '@anvil/proto';
import type { Identity } from '../src/domain/context.js';
import type { Orgs } from '../src/domain/orgs.js';
import { argon2Hasher } from '../src/domain/password.js';
import { identityGrpcService } from '../src/grpc/identity-service.js';
import { orgGrpcService } from '../src/grpc/org-service.js';
import type { IdentityDb } from '../src/store/db.js';
import { identityStore } from '../src/store/identity-store.js';
import { orgStore } from '../src/store/org-store.js';
import { failureOf as failure } from './support/fixtures.js';
import { TEST_SETTINGS } from './support/memory-store.js';
import { identityTestbed, type IdentityTestbed, type IdentityTestEvents } from './support/testbed.js';

let tb: IdentityTestbed;
let db: IdentityDb;
let eventOf: IdentityTestEvents['eventOf'];
let users: ServiceClient<identity.IdentityServiceClient>;
let orgs: ServiceClient<identity.OrgServiceClient>;

const asCaller = (user: identity.User): Caller =>
  ({ userId: user.id, login: user.login, isAdmin: user.is_admin, restricted: user.restricted, scopes: ['all'] });

let counter = 0;
const name = (prefix: string) => `${prefix}${++counter}_${tb.runId.slice(-4)}`;
async function newUser(): Promise<identity.User> {
  const login = name('user');
  return users.CreateUser({ login, email: `${login}@example.com`, password: `pw-${login}-secret` }, { caller: SYSTEM });
}

beforeAll(async () => {
  tb = await identityTestbed('orgs');
  db = tb.db;
  const events = await tb.events();
  eventOf = events.eventOf;
  const { onPublished } = events;
  const identityCtx: Identity = { store: identityStore(db, { onPublished }), hasher: argon2Hasher(), settings: TEST_SETTINGS };
  const orgsCtx: Orgs = { store: orgStore(db, { onPublished }), settings: TEST_SETTINGS };
  const grpc = await tb.serve([identityGrpcService(identityCtx), orgGrpcService(orgsCtx)]);
  const { anvil } = loadAnvilGrpc();
  users = grpc.client<identity.IdentityServiceClient>(anvil.identity.v1.IdentityService);
  orgs = grpc.client<identity.OrgServiceClient>(anvil.identity.v1.OrgService);
}, 30_000);

afterAll(() => tb?.close(), 30_000);

describe('organizations in PostgreSQL', () => {
  it('creates the org, its Owners team and the first membership in one transaction, announcing each', async () => {
    const owner = await newUser();
    const org = await orgs.CreateOrg({ name: name('org'), full_name: 'Acme', visibility: 'VISIBILITY_PRIVATE', repo_admin_change_team_access: true }, { caller: asCaller(owner) });
    const orgId = org.account!.id;
    expect(org.account).toMatchObject({ type: 'organization', full_name: 'Acme', visibility: 'VISIBILITY_PRIVATE' });

    const created = await eventOf('identity.org.created', (p) => p.org?.account?.id === orgId);
    expect(created.type).toBe('anvil.identity.v1.OrgCreated');
    expect(created.payload.org).toMatchObject({ repo_admin_change_team_access: true, account: { login: org.account!.login, type: 'organization' } });
    const team = await eventOf('identity.team.created', (p) => p.team?.org_id === orgId);
    expect(team.payload.team).toMatchObject({ name: 'Owners', permission: 'owner', includes_all_repositories: true, can_create_org_repo: true });
    expect(team.payload.team.units_map['repo.code']).toBe('owner');
    const added = await eventOf('identity.team.member_added', (p) => p.org_id === orgId);
    expect(added.payload).toEqual({ team_id: team.payload.team.id, org_id: orgId, user_id: owner.id });

    expect(await db.orgUser.count({ where: { org_id: BigInt(orgId) } })).toBe(1);
    expect(await db.outboxEvent.count({ where: { subject: { contains: 'identity.org.created' } } })).toBeGreaterThanOrEqual(1);
  });

  it('refuses a name a user holds, leaving no organization, team or event behind', async () => {
    const owner = await newUser();
    const before = await db.outboxEvent.count();
    const teamsBefore = await db.team.count();
    expect(await failure(orgs.CreateOrg({ name: owner.login.toUpperCase() }, { caller: asCaller(owner) })))
      .toMatchObject({ kind: 'already_exists', reason: 'user_already_exists' });
    expect(await db.outboxEvent.count()).toBe(before);
    expect(await db.team.count()).toBe(teamsBefore);
  });

  it('keeps one owner when two concurrent requests each remove one of the last two', async () => {
    const first = await newUser();
    const second = await newUser();
    const org = await orgs.CreateOrg({ name: name('org') }, { caller: asCaller(first) });
    const teams = await orgs.ListTeams({ org: org.account!.login }, { caller: asCaller(first) });
    const owners = teams.teams.find((t) => t.name === 'Owners')!;
    await orgs.AddTeamMember({ id: owners.id, login: second.login }, { caller: asCaller(first) });

    const attempts = await Promise.allSettled([
      orgs.RemoveTeamMember({ id: owners.id, login: first.login }, { caller: SYSTEM }),
      orgs.RemoveTeamMember({ id: owners.id, login: second.login }, { caller: SYSTEM }),
    ]);
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    const refused = attempts.find((a) => a.status === 'rejected') as PromiseRejectedResult;
    expect((refused.reason as DomainError).reason).toBe('last_org_owner');
    expect(await db.teamUser.count({ where: { team_id: BigInt(owners.id) } })).toBe(1);
  });

  it('announces team changes and membership removals, and deleting the org removes its rows', async () => {
    const owner = await newUser();
    const member = await newUser();
    const org = await orgs.CreateOrg({ name: name('org') }, { caller: asCaller(owner) });
    const orgId = org.account!.id;
    const team = await orgs.CreateTeam({ org: org.account!.login, name: 'devs', permission: 'write', units: ['repo.code', 'repo.issues'] }, { caller: asCaller(owner) });
    await orgs.AddTeamMember({ id: team.id, login: member.login }, { caller: asCaller(owner) });
    await orgs.EditTeam({ id: team.id, permission: 'read' }, { caller: asCaller(owner) });
    const updated = await eventOf('identity.team.updated', (p) => p.team?.id === team.id);
    expect(updated.payload.team).toMatchObject({ permission: 'read', org_id: orgId, units_map: { 'repo.code': 'read', 'repo.issues': 'read' } });

    expect(await failure(users.DeleteUser({ login: member.login }, { caller: SYSTEM })))
      .toEqual({ kind: 'invalid', reason: 'user_has_orgs', message: `user still has membership of organizations [uid: ${member.id}]` });

    await orgs.RemoveMember({ org: org.account!.login, login: member.login }, { caller: asCaller(owner) });
    await eventOf('identity.team.member_removed', (p) => p.team_id === team.id && p.user_id === member.id);
    expect(await db.orgUser.count({ where: { org_id: BigInt(orgId), uid: BigInt(member.id) } })).toBe(0);

    await orgs.DeleteOrg({ name: org.account!.login }, { caller: asCaller(owner) });
    const deleted = await eventOf('identity.org.deleted', (p) => p.org_id === orgId);
    expect(deleted.payload).toEqual({ org_id: orgId, name: org.account!.login });
    expect(await db.team.count({ where: { org_id: BigInt(orgId) } })).toBe(0);
    expect(await db.orgUser.count({ where: { org_id: BigInt(orgId) } })).toBe(0);
    expect(await db.user.count({ where: { id: BigInt(orgId) } })).toBe(0);
  });
});

