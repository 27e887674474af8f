// Organization-owned repositories and team access as a Gitea client sees them: owners create
// repositories in their org, teams are given repositories and their members reach them with
// the team's permission, outsiders do not see a private org's repositories, and owners of
// repositories cannot be deleted until they let go of them. One booted system for the file.
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { Accounts, TestUser } from '../support/accounts.js';
import { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e } from '../support/e2e.js';
import type { RunningSystem } from '../support/system.js';

jest.setTimeout(90_000);

let e2e: E2e;
let system: RunningSystem;
let anonymous: ApiClient;
let admin: ApiClient;
let users: Accounts;

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'orguser' });
  ({ system, anonymous, admin, users } = e2e);
}, 180_000);

afterAll(() => e2e?.close());

// Repository learns about users, orgs, teams and memberships from identity's events, a
// moment after identity answered: `users.eventually` retries until the wanted status.
async function newOrg(owner: ApiClient, visibility: 'public' | 'limited' | 'private') {
  const name = users.unique('org');
  expect((await owner.post('/orgs', { username: name, visibility })).status).toBe(201);
  // Known to repository, with the creator as a member of its Owners team.
  await users.eventually(() => owner.get(`/orgs/${name}/repos`), 200);
  return name;
}

describe('a private organization\'s repositories and a team that reads them', () => {
  let owner: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let org = '';
  let teamId = 0;

  beforeAll(async () => {
    [owner, member, outsider] = [await users.newUser(), await users.newUser(), await users.newUser()];
    org = await newOrg(owner.client, 'private');
  });

  test('the org owner creates repositories in the org, through both create routes', async () => {
    const res = await owner.client.post(`/orgs/${org}/repos`, { name: 'app', private: true, auto_init: true });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ full_name: `${org}/app`, private: true, owner: { login: org }, permissions: { admin: true, push: true, pull: true } });
    const old = await owner.client.post(`/org/${org}/repos`, { name: 'docs', private: true });
    expect(old.status).toBe(201);
    expect(old.body.owner.login).toBe(org);
  });

  test('a site admin may create repositories in any org', async () => {
    expect((await admin.post(`/orgs/${org}/repos`, { name: 'by-admin', private: true })).status).toBe(201);
  });

  test('someone outside a private org cannot see it to create repositories in it', async () => {
    expect((await outsider.client.post(`/orgs/${org}/repos`, { name: 'intruder' })).status).toBe(404);
  });

  test('a member of a team with read access sees the repository with pull permission only', async () => {
    const team = await owner.client.post(`/orgs/${org}/teams`, { name: 'readers', permission: 'read', units: ['repo.code'] });
    expect(team.status).toBe(201);
    teamId = team.body.id;
    expect((await owner.client.put(`/teams/${teamId}/members/${member.username}`)).status).toBe(204);
    expect((await owner.client.put(`/teams/${teamId}/repos/${org}/app`)).status).toBe(204);

    await users.eventually(() => member.client.get(`/repos/${org}/app`), 200);
    const got = await member.client.get(`/repos/${org}/app`);
    expect(got.body.permissions).toEqual({ admin: false, push: false, pull: true });
    // The private repository the team was not given stays hidden.
    expect((await member.client.get(`/repos/${org}/docs`)).status).toBe(404);
  });

  test('a public repository of a private org is readable by every member, and by no one else', async () => {
    expect((await owner.client.post(`/orgs/${org}/repos`, { name: 'handbook' })).status).toBe(201);
    expect((await member.client.get(`/repos/${org}/handbook`)).body.permissions).toEqual({ admin: false, push: false, pull: true });
    expect((await outsider.client.get(`/repos/${org}/handbook`)).status).toBe(404);
    expect((await anonymous.get(`/repos/${org}/handbook`)).status).toBe(404);
    expect((await owner.client.delete(`/repos/${org}/handbook`)).status).toBe(204);
  });

  test('the team\'s repositories are listed and read through the team', async () => {
    const list = await owner.client.get(`/teams/${teamId}/repos`);
    expect(list.status).toBe(200);
    expect(list.body.map((r: { name: string }) => r.name)).toEqual(['app']);
    const one = await member.client.get(`/teams/${teamId}/repos/${org}/app`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ full_name: `${org}/app`, permissions: { admin: false, push: false, pull: true } });
    expect((await owner.client.get(`/teams/${teamId}/repos/${org}/docs`)).status).toBe(404);
    expect((await owner.client.get(`/teams/${teamId}/repos/${org}/missing`)).status).toBe(404);
  });

  test('branch protection whitelists name the org\'s teams; a team the org does not have is refused', async () => {
    const rule = { rule_name: 'main', enable_push: true, enable_push_whitelist: true };
    const unknown = await owner.client.post(`/repos/${org}/app/branch_protections`, { ...rule, push_whitelist_teams: ['no-such-team'] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toMatch(/team does not exist/);
    const created = await owner.client.post(`/repos/${org}/app/branch_protections`, { ...rule, push_whitelist_teams: ['readers'] });
    expect(created.status).toBe(201);
    expect(created.body.push_whitelist_teams).toEqual(['readers']);
    expect((await owner.client.delete(`/repos/${org}/app/branch_protections/main`)).status).toBe(204);
  });

  test('the member finds the org repository in their lists; outsiders and anonymous callers do not', async () => {
    const mine = await member.client.get('/user/repos');
    expect(mine.body.map((r: { full_name: string }) => r.full_name)).toContain(`${org}/app`);
    // Private ones only: on a shared system other files' public `app`s could fill the page.
    const search = await member.client.get(`/repos/search?q=app&is_private=true&limit=50`);
    expect(search.body.data.map((r: { full_name: string }) => r.full_name)).toContain(`${org}/app`);
    const orgRepos = await member.client.get(`/orgs/${org}/repos`);
    expect(orgRepos.body.map((r: { name: string }) => r.name)).toEqual(['app']);

    expect((await outsider.client.get(`/repos/${org}/app`)).status).toBe(404);
    const theirSearch = await outsider.client.get(`/repos/search?q=app&limit=50`);
    expect(theirSearch.body.data.map((r: { full_name: string }) => r.full_name)).not.toContain(`${org}/app`);
    expect((await outsider.client.get(`/orgs/${org}/repos`)).status).toBe(404);
    expect((await anonymous.get(`/orgs/${org}/repos`)).status).toBe(404);
    expect((await anonymous.get(`/repos/${org}/app`)).status).toBe(404);
  });

  test('a team member without admin access to a repository cannot give it to the team', async () => {
    expect((await member.client.put(`/teams/${teamId}/repos/${org}/docs`)).status).toBe(403);
    expect((await member.client.delete(`/teams/${teamId}/repos/${org}/app`)).status).toBe(403);
  });

  test('taking the repository from the team takes the member\'s access with it', async () => {
    expect((await owner.client.delete(`/teams/${teamId}/repos/${org}/app`)).status).toBe(204);
    expect((await owner.client.get(`/teams/${teamId}/repos/${org}/app`)).status).toBe(404);
    expect((await owner.client.get(`/teams/${teamId}/repos`)).body).toEqual([]);
    expect((await member.client.get(`/repos/${org}/app`)).status).toBe(404);
  });

  test('the org cannot be deleted while it owns repositories', async () => {
    const refused = await owner.client.undeclared('DELETE', `/orgs/${org}`);
    expect(refused.status).toBe(422);
    expect(refused.message).toMatch(/still has ownership of repositories/);
    expect((await owner.client.get(`/orgs/${org}`)).status).toBe(200);

    for (const name of ['app', 'docs', 'by-admin']) expect((await owner.client.delete(`/repos/${org}/${name}`)).status).toBe(204);
    expect((await owner.client.delete(`/orgs/${org}`)).status).toBe(204);
  });
});

describe('leaving a team', () => {
  test('a member removed from a team stops seeing its private repository, though they had just read it', async () => {
    const [owner, member] = [await users.newUser(), await users.newUser()];
    const org = await newOrg(owner.client, 'private');
    expect((await owner.client.post(`/orgs/${org}/repos`, { name: 'vault', private: true })).status).toBe(201);
    const team = await owner.client.post(`/orgs/${org}/teams`, { name: 'keepers', permission: 'read', units: ['repo.code'] });
    expect(team.status).toBe(201);
    expect((await owner.client.put(`/teams/${team.body.id}/members/${member.username}`)).status).toBe(204);
    expect((await owner.client.put(`/teams/${team.body.id}/repos/${org}/vault`)).status).toBe(204);
    await users.eventually(() => member.client.get(`/repos/${org}/vault`), 200);
    expect((await member.client.get(`/repos/${org}/vault`)).status).toBe(200);

    expect((await owner.client.delete(`/teams/${team.body.id}/members/${member.username}`)).status).toBe(204);
    // The repository service hears of it from identity's event a moment later, and the
    // gateway forgets what it remembered as soon as that lands.
    await users.eventually(() => member.client.get(`/repos/${org}/vault`), 404);
    expect((await member.client.get(`/repos/${org}/vault`)).status).toBe(404);
  });
});

describe('a public organization', () => {
  test('shows its public repositories to everyone, and refuses repository creation to non-members with 403', async () => {
    const owner = await users.newUser();
    const outsider = await users.newUser();
    const org = await newOrg(owner.client, 'public');
    expect((await owner.client.post(`/orgs/${org}/repos`, { name: 'open' })).status).toBe(201);
    expect((await owner.client.post(`/orgs/${org}/repos`, { name: 'closed', private: true })).status).toBe(201);

    const seen = await anonymous.get(`/orgs/${org}/repos`);
    expect(seen.status).toBe(200);
    expect(seen.body.map((r: { name: string }) => r.name)).toEqual(['open']);
    expect((await anonymous.get(`/repos/${org}/open`)).body.permissions).toEqual({ admin: false, push: false, pull: true });
    expect((await outsider.client.get(`/repos/${org}/closed`)).status).toBe(404);
    expect((await outsider.client.post(`/orgs/${org}/repos`, { name: 'mine' })).status).toBe(403);
    // A user is not an organization.
    expect((await anonymous.get(`/orgs/${owner.username}/repos`)).status).toBe(404);
  });

  test('a team allowed to create repositories may create them, with write access for its members', async () => {
    const owner = await users.newUser();
    const creator = await users.newUser();
    const org = await newOrg(owner.client, 'public');
    const team = await owner.client.post(`/orgs/${org}/teams`, {
      name: 'makers', permission: 'write', units: ['repo.code'], can_create_org_repo: true, includes_all_repositories: true,
    });
    expect(team.status).toBe(201);
    expect((await owner.client.put(`/teams/${team.body.id}/members/${creator.username}`)).status).toBe(204);
    // Right after joining, as with Gitea: no waiting for the repository service to hear of it.
    expect((await creator.client.post(`/orgs/${org}/repos`, { name: 'made', private: true })).status).toBe(201);
    const got = await creator.client.get(`/repos/${org}/made`);
    expect(got.body.permissions).toEqual({ admin: false, push: true, pull: true });
  });

  test('takes a repository the moment it was created, as Gitea does', async () => {
    const owner = await users.newUser();
    const outsider = await users.newUser();
    for (let i = 0; i < 3; i++) {
      const org = users.unique('fresh');
      expect((await owner.client.post('/orgs', { username: org, visibility: 'public' })).status).toBe(201);
      expect((await owner.client.post(`/orgs/${org}/repos`, { name: 'first' })).status).toBe(201);
      // Only members identity vouches for are waited for; others are refused at once.
      expect((await outsider.client.post(`/orgs/${org}/repos`, { name: 'theirs' })).status).toBe(403);
    }
  });
});

describe('deleting a user who owns repositories', () => {
  test('is refused without purge, and purge deletes the user and their repositories', async () => {
    const user = await users.newUser();
    expect((await user.client.post('/user/repos', { name: 'keep' })).status).toBe(201);

    const refused = await admin.delete(`/admin/users/${user.username}`);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe(`user still has ownership of repositories [uid: ${user.id}]`);
    expect((await admin.get(`/repos/${user.username}/keep`)).status).toBe(200);

    expect((await admin.delete(`/admin/users/${user.username}?purge=true`)).status).toBe(204);
    await users.eventually(() => admin.get(`/repos/${user.username}/keep`), 404);
  });
});
