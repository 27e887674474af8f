// Integration test: the organization/team read model follows identity's org and team events
// over real NATS JetStream into real PostgreSQL, and org-owned repositories' permissions are
// computed from it. Needs PostgreSQL (ANVIL_TEST_PG_URL, default the local trust-auth server)
// and NATS with JetStream (ANVIL_TEST_NATS_URL). Each run gets its own database and stream.
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { startConsumer, type Caller, type EventBus, type RunningConsumer } from '@anvil/kit';
import type { identity } from '@anvil/proto';
import { identityOrgConsumer, IDENTITY_ORG_CONSUMER } from '../src/events/identity-org-consumer.js';
import { identityUserConsumer, IDENTITY_USER_CONSUMER } from '../src/events/identity-user-consumer.js';
import { resolveRepository, searchRepositories } from '../src/domain/repositories.js';
import type { SearchFilter } from '../src/domain/store.js';
import { repositoryStore } from '../src/store/repositories.js';
import type { RepositoryDb } from '../src/store/db.js';
import { repositoryTestbed, type RepositoryTestbed, type RepositoryTestEvents } from './support/testbed.js';

const DUPLICATE_WINDOW_MS = 200;

let tb: RepositoryTestbed;
let db: RepositoryDb;
let bus: EventBus;
let publish: RepositoryTestEvents['publish'];
const consumers: RunningConsumer[] = [];

/** Waits until both consumers have acknowledged every message their filters match. */
async function settled(timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let done = true;
    for (const name of [IDENTITY_USER_CONSUMER, IDENTITY_ORG_CONSUMER]) {
      const info = await bus.jsm.consumers.info(bus.stream, name);
      if (info.num_pending !== 0 || info.num_ack_pending !== 0) done = false;
    }
    if (done) return;
    if (Date.now() > deadline) throw new Error('consumers did not catch up');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const VISIBILITY = { public: 0, limited: 1, private: 2 } as const;
const account = (id: number, login: string, visibility: keyof typeof VISIBILITY): identity.UserInput =>
  ({ id, login, full_name: '', email: '', type: 'organization', max_repo_creation: -1, visibility: VISIBILITY[visibility] });
const userCreated = (id: number, login: string) => publish('identity.user.created', 'anvil.identity.v1.UserCreated',
  { user: { id, login, full_name: '', email: `${login}@example.com`, type: 'user', max_repo_creation: -1 } });
const orgCreated = (id: number, login: string, visibility: keyof typeof VISIBILITY = 'public') =>
  publish('identity.org.created', 'anvil.identity.v1.OrgCreated', { org: { account: account(id, login, visibility) } });
const orgUpdated = (id: number, login: string, visibility: keyof typeof VISIBILITY, previous = '') =>
  publish('identity.org.updated', 'anvil.identity.v1.OrgUpdated', { org: { account: account(id, login, visibility) }, previous_name: previous });
const orgDeleted = (id: number, name: string) => publish('identity.org.deleted', 'anvil.identity.v1.OrgDeleted', { org_id: id, name });
const team = (id: number, orgId: number, permission: string, extra: Partial<identity.TeamInput> = {}): identity.TeamInput =>
  ({ id, org_id: orgId, name: `team${id}`, permission, units_map: {}, includes_all_repositories: false, can_create_org_repo: false, visibility: 'public', ...extra });
const teamCreated = (t: identity.TeamInput, id?: string) => publish('identity.team.created', 'anvil.identity.v1.TeamCreated', { team: t }, id);
const teamDeleted = (teamId: number, orgId: number) => publish('identity.team.deleted', 'anvil.identity.v1.TeamDeleted', { team_id: teamId, org_id: orgId, name: '' });
const memberAdded = (teamId: number, orgId: number, userId: number, id?: string) =>
  publish('identity.team.member_added', 'anvil.identity.v1.TeamMemberAdded', { team_id: teamId, org_id: orgId, user_id: userId }, id);
const memberRemoved = (teamId: number, orgId: number, userId: number) =>
  publish('identity.team.member_removed', 'anvil.identity.v1.TeamMemberRemoved', { team_id: teamId, org_id: orgId, user_id: userId });

const caller = (userId: number, login = `u${userId}`): Caller => ({ userId, login, isAdmin: false, restricted: false, scopes: [] } as unknown as Caller);

async function newRepository(ownerId: number, ownerLogin: string, name: string, isPrivate: boolean): Promise<number> {
  const store = repositoryStore(db);
  const repo = await store.transaction((tx) => tx.insert({
    owner_id: ownerId, owner_login: ownerLogin, name, description: '', website: '', private: isPrivate, archived: false, default_branch: 'main', object_format_name: 'sha1', template: false,
    has_issues: true, has_wiki: true, has_pull_requests: true, has_projects: true, has_releases: true, has_packages: true, has_actions: true, has_code: true,
  }));
  return repo.id;
}

const permissionOn = async (org: string, repo: string, who: Caller) =>
  resolveRepository(repositoryStore(db), org, repo, who).then((a) => a.permission, (err: { kind?: string }) => err.kind === 'not_found' ? 'not found' : Promise.reject(err));

function filter(viewerId: number, over: Partial<SearchFilter> = {}): SearchFilter {
  return {
    viewerId, viewerIsAdmin: false, viewerRestricted: false, q: '', owner_id: 0, exclusive: false, includeCollaborative: false,
    visibility: '', onlyCollaborative: false, sort: 'id', order: 'asc', offset: 0, limit: 50, ...over,
  };
}

beforeAll(async () => {
  tb = await repositoryTestbed('org');
  const { log } = tb;
  db = tb.db;
  ({ bus, publish } = await tb.events({ duplicateWindowMs: DUPLICATE_WINDOW_MS }));
  consumers.push(await startConsumer({ ...identityUserConsumer(log), db, bus, log }));
  consumers.push(await startConsumer({ ...identityOrgConsumer(log), db, bus, log }));
  for (const [id, login] of [[1, 'owner'], [2, 'reader'], [3, 'writer'], [4, 'stranger'], [5, 'allrepos']] as const) await userCreated(id, login);
}, 30_000);

afterAll(async () => {
  for (const c of consumers) await c.stop();
  await tb?.close();
}, 30_000);

describe('organization and team read model fed by identity events', () => {
  let secretRepo = 0;

  it('keeps an organization as an owner and its teams and members, and computes access from them', async () => {
    await orgCreated(100, 'acme');
    await teamCreated(team(11, 100, 'owner', { can_create_org_repo: true }));
    await teamCreated(team(12, 100, 'read'));
    await teamCreated(team(13, 100, 'write'));
    await teamCreated(team(14, 100, 'read', { includes_all_repositories: true }));
    await memberAdded(11, 100, 1);
    await memberAdded(12, 100, 2);
    await memberAdded(13, 100, 3);
    await memberAdded(14, 100, 5);
    await settled();

    expect(await db.owner.findUnique({ where: { id: 100n } })).toMatchObject({ name: 'acme', type: 'organization', visibility: 'public' });
    secretRepo = await newRepository(100, 'acme', 'secret', true);
    await repositoryStore(db).transaction((tx) => tx.addTeamRepository({ teamId: 12, orgId: 100, includesAllRepositories: false }, secretRepo));
    await repositoryStore(db).transaction((tx) => tx.addTeamRepository({ teamId: 13, orgId: 100, includesAllRepositories: false }, secretRepo));

    expect(await permissionOn('acme', 'secret', caller(1))).toBe('owner');
    expect(await permissionOn('acme', 'secret', caller(2))).toBe('read');
    expect(await permissionOn('acme', 'secret', caller(3))).toBe('write');
    expect(await permissionOn('acme', 'secret', caller(5))).toBe('read');
    expect(await permissionOn('acme', 'secret', caller(4))).toBe('not found');
    expect(await permissionOn('acme', 'secret', caller(0))).toBe('not found');
  });

  it('lists an org\'s private repository to its team members only, with their permission', async () => {
    const store = repositoryStore(db);
    const seen = async (userId: number) => (await searchRepositories(store, filter(userId), caller(userId))).items
      .filter((i) => i.repository.id === secretRepo).map((i) => i.permission);
    expect(await seen(2)).toEqual(['read']);
    expect(await seen(3)).toEqual(['write']);
    expect(await seen(1)).toEqual(['owner']);
    expect(await seen(4)).toEqual([]);
    // /user/repos: the caller's own, collaborative and team repositories.
    const mine = await searchRepositories(store, filter(2, { owner_id: 2, includeCollaborative: true }), caller(2));
    expect(mine.items.map((i) => i.repository.name)).toEqual(['secret']);
  });

  it('applies a redelivered membership event once', async () => {
    const id = randomUUID();
    await memberAdded(12, 100, 4, id);
    await settled();
    await new Promise((resolve) => setTimeout(resolve, DUPLICATE_WINDOW_MS + 100));
    await memberAdded(12, 100, 4, id);
    await settled();
    expect(await db.orgTeamMember.count({ where: { team_id: 12n, user_id: 4n } })).toBe(1);
    expect(await db.processedEvent.count({ where: { consumer: IDENTITY_ORG_CONSUMER, event_id: id } })).toBe(1);
    expect(await permissionOn('acme', 'secret', caller(4))).toBe('read');
  });

  it('takes access away when a member leaves or a team is deleted', async () => {
    await memberRemoved(12, 100, 4);
    await teamDeleted(13, 100);
    // Late, as when a failed handler is retried after later events: the team stays deleted.
    await teamCreated(team(13, 100, 'write'));
    await memberAdded(13, 100, 3);
    await settled();
    expect(await db.orgTeam.count({ where: { id: 13n } })).toBe(0);
    expect(await permissionOn('acme', 'secret', caller(4))).toBe('not found');
    expect(await permissionOn('acme', 'secret', caller(3))).toBe('not found');
    expect(await db.teamRepository.count({ where: { team_id: 13n } })).toBe(0);
  });

  it('hides a private organization\'s public repositories from non-members', async () => {
    await newRepository(100, 'acme', 'open', false);
    expect(await permissionOn('acme', 'open', caller(4))).toBe('read');
    await orgUpdated(100, 'acme', 'private');
    await settled();
    expect(await permissionOn('acme', 'open', caller(4))).toBe('not found');
    expect(await permissionOn('acme', 'open', caller(2))).toBe('read');
    const store = repositoryStore(db);
    expect((await searchRepositories(store, filter(4), caller(4))).items.map((i) => i.repository.name)).not.toContain('open');
    expect((await searchRepositories(store, filter(2), caller(2))).items.map((i) => i.repository.name)).toEqual(expect.arrayContaining(['open', 'secret']));
  });

  it('follows a rename, and drops teams, members and repositories with a deleted organization', async () => {
    await orgUpdated(100, 'acme-inc', 'public', 'acme');
    await settled();
    expect((await db.repository.findFirst({ where: { id: BigInt(secretRepo) } }))?.owner_login).toBe('acme-inc');
    await orgDeleted(100, 'acme-inc');
    await teamCreated(team(15, 100, 'write')); // late: the org is gone
    await settled();
    expect(await db.owner.findUnique({ where: { id: 100n } })).toBeNull();
    expect(await db.orgTeam.count({ where: { org_id: 100n } })).toBe(0);
    expect(await db.orgTeamMember.count({ where: { org_id: 100n } })).toBe(0);
    expect(await db.repository.count({ where: { owner_id: 100n } })).toBe(0);
  });
});
