// Lists that name repositories by id (a user's notifications, tracked times, stopwatches,
// stars, watches) keep the ones the caller may see, with the caller's permission there. The
// repository service answers such a search from one statement, resolving each repository as
// a GET of it would: this file checks, for every kind of viewer and every kind of owner and
// grant, that it keeps exactly the repositories (and permissions) that resolving each one
// gives, and that the general search's SQL filter gives. Real PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Caller } from '@anvil/kit';
import { resolveRepository, searchRepositories, withPermissions } from '../src/domain/repositories.js';
import type { SearchFilter } from '../src/domain/store.js';
import { searchFilterOf } from '../src/grpc/repository-service.js';
import { repositoryStore } from '../src/store/repositories.js';
import { repositoryTestbed, type RepositoryTestbed } from './support/testbed.js';

let tb: RepositoryTestbed;
const ids: number[] = [];

type Visibility = 'public' | 'limited' | 'private';
const OWNERS: Array<{ id: number; login: string; type: 'user' | 'organization'; visibility: Visibility }> = [
  { id: 1, login: 'pat', type: 'user', visibility: 'public' },
  { id: 2, login: 'lim', type: 'user', visibility: 'limited' },
  { id: 3, login: 'hid', type: 'user', visibility: 'private' },
  { id: 100, login: 'open-org', type: 'organization', visibility: 'public' },
  { id: 101, login: 'limited-org', type: 'organization', visibility: 'limited' },
  { id: 102, login: 'secret-org', type: 'organization', visibility: 'private' },
];
// Viewers with no repository of their own: grants and teams only.
const VIEWERS = [{ id: 10, login: 'collab' }, { id: 11, login: 'teamer' }, { id: 12, login: 'boss' }, { id: 13, login: 'wholeorg' }, { id: 14, login: 'nobody' }];

const viewer = (userId: number, over: Partial<Caller> = {}): Caller =>
  ({ userId, login: `u${userId}`, isAdmin: false, restricted: false, scopes: ['all'], ...over });

const CALLERS: Array<[string, Caller]> = [
  ['an anonymous reader', viewer(0, { login: '' })],
  ['a signed-in stranger', viewer(14)],
  ['a collaborator', viewer(10)],
  ['a restricted collaborator', viewer(10, { restricted: true })],
  ['a member of teams given some repositories', viewer(11)],
  ['a restricted team member', viewer(11, { restricted: true })],
  ['an organization owner', viewer(12)],
  ['a member of a team with every repository', viewer(13)],
  ['an owner of private repositories', viewer(1)],
  ['a private user', viewer(3)],
  ['a site admin', viewer(14, { isAdmin: true })],
  ['a public-only token of an owner', viewer(1, { scopes: ['all', 'public-only'] })],
];

beforeAll(async () => {
  tb = await repositoryTestbed('byid');
  const { db } = tb;
  for (const o of [...OWNERS, ...VIEWERS.map((v) => ({ ...v, type: 'user' as const, visibility: 'public' as const }))]) {
    await db.owner.create({ data: { id: BigInt(o.id), lower_name: o.login, name: o.login, type: o.type, visibility: o.visibility } });
  }
  const store = repositoryStore(db);
  for (const o of OWNERS) {
    for (const isPrivate of [false, true]) {
      const repo = await store.transaction((tx) => tx.insert({
        owner_id: o.id, owner_login: o.login, name: isPrivate ? 'closed' : 'open', description: '', website: '', private: isPrivate, archived: false,
        default_branch: 'main', object_format_name: 'sha1', template: false, has_issues: true, has_wiki: true, has_pull_requests: true,
        has_projects: true, has_releases: true, has_packages: true, has_actions: true, has_code: true,
      }));
      ids.push(repo.id);
    }
  }
  const repoOf = (ownerId: number, isPrivate: boolean) => BigInt(ids[OWNERS.findIndex((o) => o.id === ownerId) * 2 + (isPrivate ? 1 : 0)]);
  // The collaborator: read on a public user's private repository, write on a limited org's.
  await db.collaboration.create({ data: { repository_id: repoOf(1, true), user_id: 10n, mode: 'read' } });
  await db.collaboration.create({ data: { repository_id: repoOf(101, true), user_id: 10n, mode: 'write' } });
  await db.collaboration.create({ data: { repository_id: repoOf(3, true), user_id: 10n, mode: 'admin' } });
  // Teams: a read team given the secret org's private repository, a write team given the
  // open org's; the secret org's owners; a team of the limited org with every repository.
  const teams = [
    { id: 500n, org_id: 102n, permission: 'read', includes_all_repositories: false, given: [repoOf(102, true)], members: [11n] },
    { id: 501n, org_id: 100n, permission: 'write', includes_all_repositories: false, given: [repoOf(100, true)], members: [11n] },
    { id: 502n, org_id: 102n, permission: 'owner', includes_all_repositories: true, given: [], members: [12n] },
    { id: 503n, org_id: 101n, permission: 'read', includes_all_repositories: true, given: [], members: [13n] },
  ];
  for (const t of teams) {
    await db.orgTeam.create({ data: { id: t.id, org_id: t.org_id, name: `team${t.id}`, permission: t.permission, includes_all_repositories: t.includes_all_repositories } });
    for (const r of t.given) await db.teamRepository.create({ data: { team_id: t.id, repository_id: r, org_id: t.org_id } });
    for (const m of t.members) await db.orgTeamMember.create({ data: { team_id: t.id, user_id: m, org_id: t.org_id } });
  }
}, 30_000);

afterAll(async () => {
  await tb?.close();
});

const listOf = (items: Array<{ repository: { id: number }; permission: string }>) => items.map((i) => `${i.repository.id}:${i.permission}`);

/** What a GET of each repository gives the caller: its permission, or nothing for a 404 (or a public-only token's 403). */
async function resolvedOneByOne(caller: Caller): Promise<string[]> {
  const store = repositoryStore(tb.db);
  const seen: string[] = [];
  for (const [i, id] of ids.entries()) {
    const owner = OWNERS[Math.floor(i / 2)];
    const access = await resolveRepository(store, owner.login, i % 2 ? 'closed' : 'open', caller).catch(() => undefined);
    if (access) seen.push(`${id}:${access.permission}`);
  }
  return seen;
}

function idsFilter(caller: Caller, over: Partial<SearchFilter> = {}): SearchFilter {
  const filter = searchFilterOf({ q: '', sort: '', order: '', visibility: '', archived: '', mode: '', owner_login: '', owner_id: 0, ids, page: { page: 1, limit: 50 } } as never, caller);
  return { ...filter, ...over };
}

describe('a list of repositories named by id', () => {
  it.each(CALLERS)('keeps for %s what a GET of each repository shows them, with the same permission', async (_who, caller) => {
    const store = repositoryStore(tb.db);
    const byIds = await searchRepositories(store, idsFilter(caller), caller);
    const expected = await resolvedOneByOne(caller);
    expect(listOf(byIds.items)).toEqual(expected);
    expect(byIds.total).toBe(expected.length);
  });

  it.each(CALLERS)('keeps for %s what the repository search shows them', async (_who, caller) => {
    const store = repositoryStore(tb.db);
    const filter = idsFilter(caller);
    const byIds = await searchRepositories(store, filter, caller);
    const searched = await store.search(filter);
    expect(listOf(byIds.items)).toEqual(listOf(await withPermissions(store, searched.items, caller)));
    expect(byIds.total).toBe(searched.total);
  });

  it('pages the kept repositories in id order, newest first when asked, counting them all', async () => {
    const store = repositoryStore(tb.db);
    const admin = viewer(14, { isAdmin: true });
    const page2 = await searchRepositories(store, idsFilter(admin, { offset: 3, limit: 3, order: 'desc' }), admin);
    expect(page2.items.map((i) => i.repository.id)).toEqual([...ids].reverse().slice(3, 6));
    expect(page2.total).toBe(ids.length);
  });

  it('leaves out ids that name no repository', async () => {
    const store = repositoryStore(tb.db);
    const admin = viewer(14, { isAdmin: true });
    const found = await searchRepositories(store, idsFilter(admin, { ids: [ids[0], 999_999] }), admin);
    expect(found.items.map((i) => i.repository.id)).toEqual([ids[0]]);
  });
});
