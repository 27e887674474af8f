// Organizations, members and teams as a Gitea client sees them: people create orgs and
// become their owners, visibility hides orgs from those who may not see them, members
// choose to be public, owners run teams. One booted system for the whole file; every
// response is checked against the contract by the client.
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { Accounts } from '../support/accounts.js';
import { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e } from '../support/e2e.js';
import type { RunningSystem } from '../support/system.js';

jest.setTimeout(60_000);

let e2e: E2e;
let system: RunningSystem;
let anonymous: ApiClient;
let admin: ApiClient;
let users: Accounts;

beforeAll(async () => {
  e2e = await bootE2e({ prefix: 'member' });
  ({ system, anonymous, admin, users } = e2e);
}, 180_000);

afterAll(() => e2e?.close());

const newUser = (fields: Record<string, unknown> = {}) => users.newUser(fields, { repositoryKnows: false });

async function newOrg(owner: ApiClient, fields: Record<string, unknown> = {}) {
  const name = users.unique('org');
  const res = await owner.post('/orgs', { username: name, ...fields });
  expect(res.status).toBe(201);
  return res.body as { id: number; name: string; visibility: string };
}

async function ownersTeamOf(owner: ApiClient, org: string) {
  const teams = await owner.get(`/orgs/${org}/teams`);
  expect(teams.status).toBe(200);
  return (teams.body as Array<{ id: number; name: string }>).find((t) => t.name === 'Owners')!;
}

describe('creating an organization', () => {
  test('makes the creator its owner, with an Owners team that includes all repositories', async () => {
    const alice = await newUser();
    const res = await alice.client.post('/orgs', {
      username: users.unique('acme'), full_name: 'Acme Corp', description: 'Rockets', website: 'https://acme.example', location: 'Desert',
      visibility: 'limited', repo_admin_change_team_access: true,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      full_name: 'Acme Corp', description: 'Rockets', website: 'https://acme.example', location: 'Desert',
      visibility: 'limited', repo_admin_change_team_access: true,
    });
    expect(res.body.username).toBe(res.body.name);

    const owners = await alice.client.get(`/teams/${(await ownersTeamOf(alice.client, res.body.name)).id}`);
    expect(owners.body).toMatchObject({
      name: 'Owners', permission: 'owner', includes_all_repositories: true, can_create_org_repo: true,
      organization: { name: res.body.name },
    });
    expect(owners.body.units).toContain('repo.code');

    const mine = await alice.client.get('/user/orgs');
    expect(mine.body.map((o: { name: string }) => o.name)).toEqual([res.body.name]);
    expect((await alice.client.get(`/orgs/${res.body.name}/members/${alice.username}`)).status).toBe(204);
  });

  test('refuses a name any user or organization already has (422), and an invalid name', async () => {
    const alice = await newUser();
    const org = await newOrg(alice.client);
    expect((await alice.client.post('/orgs', { username: org.name.toUpperCase() })).status).toBe(422);
    expect((await alice.client.post('/orgs', { username: alice.username })).status).toBe(422);
    expect((await alice.client.post('/orgs', { username: 'bad name!' })).status).toBe(422);
    expect((await alice.client.post('/orgs', {})).status).toBe(422);
  });

  test('is refused to users who may not create organizations, and to anonymous callers', async () => {
    const bob = await newUser();
    expect((await admin.patch(`/admin/users/${bob.username}`, { allow_create_organization: false, login_name: bob.username, source_id: 0 })).status).toBe(200);
    const res = await bob.client.post('/orgs', { username: users.unique('nope') });
    expect(res.status).toBe(403);
    expect((await anonymous.post('/orgs', { username: users.unique('nope') })).status).toBe(401);
  });

  test('a site admin creates one for another user, who becomes its owner', async () => {
    const carol = await newUser();
    const name = users.unique('adminmade');
    const res = await admin.post(`/admin/users/${carol.username}/orgs`, { username: name, visibility: 'private' });
    expect(res.status).toBe(201);
    expect((await carol.client.get(`/orgs/${name}`)).status).toBe(200);
    expect((await carol.client.get('/user/orgs')).body.map((o: { name: string }) => o.name)).toContain(name);
    const all = await admin.get('/admin/orgs?limit=50');
    expect(all.status).toBe(200);
    expect(Number(all.headers.get('x-total-count'))).toBeGreaterThanOrEqual(1);
    expect((await carol.client.get('/admin/orgs')).status).toBe(403);
  });
});

describe('organization visibility', () => {
  test('anonymous callers, other users, members, owners and site admins see what they may', async () => {
    const owner = await newUser();
    const member = await newUser();
    const other = await newUser();
    const pub = await newOrg(owner.client, { visibility: 'public' });
    const limited = await newOrg(owner.client, { visibility: 'limited' });
    const priv = await newOrg(owner.client, { visibility: 'private' });
    const team = await owner.client.post(`/orgs/${priv.name}/teams`, { name: 'devs', permission: 'read', units: ['repo.code'] });
    expect(team.status).toBe(201);
    expect((await owner.client.put(`/teams/${team.body.id}/members/${member.username}`)).status).toBe(204);

    const status = async (client: ApiClient, org: string) => (await client.get(`/orgs/${org}`)).status;
    expect([await status(anonymous, pub.name), await status(anonymous, limited.name), await status(anonymous, priv.name)]).toEqual([200, 404, 404]);
    expect([await status(other.client, pub.name), await status(other.client, limited.name), await status(other.client, priv.name)]).toEqual([200, 200, 404]);
    expect(await status(member.client, priv.name)).toBe(200);
    expect(await status(owner.client, priv.name)).toBe(200);
    expect(await status(admin, priv.name)).toBe(200);

    const listed = async (client: ApiClient) => {
      const res = await client.get('/orgs?limit=50');
      expect(res.status).toBe(200);
      return res.body.map((o: { name: string }) => o.name) as string[];
    };
    const anonymousList = await listed(anonymous);
    expect(anonymousList).toContain(pub.name);
    expect(anonymousList).not.toContain(limited.name);
    expect(await listed(other.client)).toContain(limited.name);
    expect(await listed(other.client)).not.toContain(priv.name);

    // A hidden organization's sub-resources are 404 too, never 403.
    expect((await other.client.get(`/orgs/${priv.name}/members`)).status).toBe(404);
    expect((await other.client.patch(`/orgs/${priv.name}`, { description: 'x' })).status).toBe(404);
  });

  test("a user's organization list shows others only public memberships of orgs they may see", async () => {
    const owner = await newUser();
    const viewer = await newUser();
    const org = await newOrg(owner.client);
    expect((await viewer.client.get(`/users/${owner.username}/orgs`)).body).toEqual([]);
    expect((await owner.client.put(`/orgs/${org.name}/public_members/${owner.username}`)).status).toBe(204);
    expect((await viewer.client.get(`/users/${owner.username}/orgs`)).body.map((o: { name: string }) => o.name)).toEqual([org.name]);
    expect((await anonymous.get(`/users/${owner.username}/orgs`)).body.map((o: { name: string }) => o.name)).toEqual([org.name]);
    expect((await owner.client.get(`/users/${owner.username}/orgs`)).body.map((o: { name: string }) => o.name)).toEqual([org.name]);
    expect((await anonymous.get('/users/no-such-user-here/orgs')).status).toBe(404);
  });
});

describe('editing, renaming and deleting', () => {
  test('owners edit the profile and visibility; members who are not owners get 403', async () => {
    const owner = await newUser();
    const member = await newUser();
    const org = await newOrg(owner.client);
    const team = await owner.client.post(`/orgs/${org.name}/teams`, { name: 'writers', permission: 'write', units: ['repo.code'] });
    await owner.client.put(`/teams/${team.body.id}/members/${member.username}`);

    const edited = await owner.client.patch(`/orgs/${org.name}`, { full_name: 'New Name', visibility: 'private', email: 'org@example.com' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ full_name: 'New Name', visibility: 'private', email: 'org@example.com' });
    expect((await member.client.undeclared('PATCH', `/orgs/${org.name}`, { full_name: 'Nope' })).status).toBe(403);
    expect((await member.client.undeclared('DELETE', `/orgs/${org.name}`)).status).toBe(403);
    expect((await owner.client.get(`/orgs/${org.name}`)).body.full_name).toBe('New Name');
  });

  test('renaming frees the old name, refuses a taken one, and deleting removes the org', async () => {
    const owner = await newUser();
    const org = await newOrg(owner.client);
    const other = await newOrg(owner.client);
    expect((await owner.client.post(`/orgs/${org.name}/rename`, { new_name: other.name })).status).toBe(422);
    const newName = users.unique('renamed');
    expect((await owner.client.post(`/orgs/${org.name}/rename`, { new_name: newName })).status).toBe(204);
    expect((await owner.client.get(`/orgs/${org.name}`)).status).toBe(404);
    expect((await owner.client.get(`/orgs/${newName}`)).body.id).toBe(org.id);

    expect((await owner.client.delete(`/orgs/${newName}`)).status).toBe(204);
    expect((await owner.client.get(`/orgs/${newName}`)).status).toBe(404);
    expect((await owner.client.get('/user/orgs')).body.map((o: { name: string }) => o.name)).toEqual([other.name]);
  });

  test('a site admin may edit and delete any organization, private ones included', async () => {
    const owner = await newUser();
    const org = await newOrg(owner.client, { visibility: 'private' });
    expect((await admin.patch(`/orgs/${org.name}`, { description: 'by admin' })).status).toBe(200);
    expect((await admin.delete(`/orgs/${org.name}`)).status).toBe(204);
  });
});

describe('members', () => {
  test('non-members see only public members; members see everyone', async () => {
    const owner = await newUser();
    const member = await newUser();
    const outsider = await newUser();
    const org = await newOrg(owner.client);
    const team = await owner.client.post(`/orgs/${org.name}/teams`, { name: 'readers', permission: 'read', units: ['repo.code'] });
    await owner.client.put(`/teams/${team.body.id}/members/${member.username}`);
    await member.client.put(`/orgs/${org.name}/public_members/${member.username}`);

    const names = (res: { body: Array<{ login: string }> }) => res.body.map((u) => u.login).sort();
    expect(names(await owner.client.get(`/orgs/${org.name}/members`))).toEqual([owner.username, member.username].sort());
    expect(names(await outsider.client.get(`/orgs/${org.name}/members`))).toEqual([member.username]);
    expect(names(await anonymous.get(`/orgs/${org.name}/public_members`))).toEqual([member.username]);
    expect((await anonymous.get(`/orgs/${org.name}/members`)).status).toBe(401);
  });

  test("membership checks answer 204/404 to members and send others to the public check", async () => {
    const owner = await newUser();
    const outsider = await newUser();
    const org = await newOrg(owner.client);
    expect((await owner.client.get(`/orgs/${org.name}/members/${owner.username}`)).status).toBe(204);
    expect((await owner.client.get(`/orgs/${org.name}/members/${outsider.username}`)).status).toBe(404);
    expect((await outsider.client.get(`/orgs/${org.name}/members/${outsider.username}`)).status).toBe(404);

    const raw = await outsider.client.undeclared('GET', `/orgs/${org.name}/members/${owner.username}`);
    expect(raw.status).toBe(303);
    expect(raw.location).toBe(`/api/v1/orgs/${org.name}/public_members/${owner.username}`);

    expect((await anonymous.get(`/orgs/${org.name}/public_members/${owner.username}`)).status).toBe(404);
    await owner.client.put(`/orgs/${org.name}/public_members/${owner.username}`);
    expect((await anonymous.get(`/orgs/${org.name}/public_members/${owner.username}`)).status).toBe(204);
    expect((await owner.client.delete(`/orgs/${org.name}/public_members/${owner.username}`)).status).toBe(204);
    expect((await anonymous.get(`/orgs/${org.name}/public_members/${owner.username}`)).status).toBe(404);
  });

  test('nobody may publicize another member, and non-members may not publicize at all', async () => {
    const owner = await newUser();
    const member = await newUser();
    const org = await newOrg(owner.client);
    const owners = await ownersTeamOf(owner.client, org.name);
    await owner.client.put(`/teams/${owners.id}/members/${member.username}`);
    expect((await owner.client.put(`/orgs/${org.name}/public_members/${member.username}`)).status).toBe(403);
    const outsider = await newUser();
    expect((await outsider.client.put(`/orgs/${org.name}/public_members/${outsider.username}`)).status).toBe(403);
  });

  test('owners remove a member from every team', async () => {
    const owner = await newUser();
    const member = await newUser();
    const org = await newOrg(owner.client);
    const team = await owner.client.post(`/orgs/${org.name}/teams`, { name: 'crew', permission: 'read', units: ['repo.code'] });
    await owner.client.put(`/teams/${team.body.id}/members/${member.username}`);
    expect((await member.client.undeclared('DELETE', `/orgs/${org.name}/members/${owner.username}`)).status).toBe(403);
    expect((await owner.client.delete(`/orgs/${org.name}/members/${member.username}`)).status).toBe(204);
    expect((await owner.client.get(`/orgs/${org.name}/members/${member.username}`)).status).toBe(404);
    expect((await member.client.get('/user/orgs')).body).toEqual([]);
  });
});

describe('teams', () => {
  test('owners create, edit and delete teams with Gitea permissions and units', async () => {
    const owner = await newUser();
    const org = await newOrg(owner.client);
    const created = await owner.client.post(`/orgs/${org.name}/teams`, {
      name: 'reviewers', description: 'Read the code', permission: 'write', units: ['repo.code', 'repo.pulls', 'repo.ext_wiki'],
      can_create_org_repo: true,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'reviewers', permission: 'write', can_create_org_repo: true, includes_all_repositories: false,
      units: ['repo.code', 'repo.pulls', 'repo.ext_wiki'],
      units_map: { 'repo.code': 'write', 'repo.pulls': 'write', 'repo.ext_wiki': 'read' },
      organization: { name: org.name },
    });
    expect((await owner.client.post(`/orgs/${org.name}/teams`, { name: 'Reviewers', permission: 'read', units: ['repo.code'] })).status).toBe(422);

    const mapped = await owner.client.post(`/orgs/${org.name}/teams`, {
      name: 'mapped', units_map: { 'repo.code': 'write', 'repo.issues': 'read', 'repo.wiki': 'none' },
    });
    expect(mapped.status).toBe(201);
    expect(mapped.body.permission).toBe('read');

    const admins = await owner.client.post(`/orgs/${org.name}/teams`, { name: 'admins', permission: 'admin' });
    expect(admins.body.units_map['repo.code']).toBe('admin');

    const edited = await owner.client.patch(`/teams/${created.body.id}`, { name: 'code-reviewers', permission: 'read', includes_all_repositories: true });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'code-reviewers', permission: 'read', includes_all_repositories: true });
    expect(edited.body.units_map['repo.code']).toBe('read');

    const search = await owner.client.get(`/orgs/${org.name}/teams/search?q=review`);
    expect(search.status).toBe(200);
    expect(search.body.ok).toBe(true);
    expect(search.body.data.map((t: { name: string }) => t.name)).toEqual(['code-reviewers']);

    expect((await owner.client.delete(`/teams/${created.body.id}`)).status).toBe(204);
    expect((await owner.client.get(`/teams/${created.body.id}`)).status).toBe(404);
  });

  test('the Owners team keeps its name and owner access, and cannot be deleted', async () => {
    const owner = await newUser();
    const org = await newOrg(owner.client);
    const owners = await ownersTeamOf(owner.client, org.name);
    const edited = await owner.client.patch(`/teams/${owners.id}`, { name: 'Renamed', permission: 'read', description: 'the bosses' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'Owners', permission: 'owner', description: 'the bosses' });
    const refused = await owner.client.undeclared('DELETE', `/teams/${owners.id}`);
    expect(refused.status).toBe(422);
    expect((await owner.client.get(`/teams/${owners.id}`)).status).toBe(200);
  });

  test('the last owner cannot leave the Owners team', async () => {
    const owner = await newUser();
    const org = await newOrg(owner.client);
    const owners = await ownersTeamOf(owner.client, org.name);
    const refused = await owner.client.undeclared('DELETE', `/teams/${owners.id}/members/${owner.username}`);
    expect(refused.status).toBe(422);
    expect(refused.message).toMatch(/last member of owner team/);

    const second = await newUser();
    expect((await owner.client.put(`/teams/${owners.id}/members/${second.username}`)).status).toBe(204);
    expect((await owner.client.delete(`/teams/${owners.id}/members/${owner.username}`)).status).toBe(204);
    expect((await second.client.get(`/teams/${owners.id}/members`)).body.map((u: { login: string }) => u.login)).toEqual([second.username]);
  });

  test('team visibility decides who lists a team: public to signed-in users, limited to members, private to its own', async () => {
    const owner = await newUser();
    const member = await newUser();
    const outsider = await newUser();
    const org = await newOrg(owner.client);
    for (const visibility of ['public', 'limited', 'private']) {
      const res = await owner.client.post(`/orgs/${org.name}/teams`, { name: `t-${visibility}`, permission: 'read', units: ['repo.code'], visibility });
      expect(res.body.visibility).toBe(visibility);
    }
    const crew = await owner.client.post(`/orgs/${org.name}/teams`, { name: 'crew', permission: 'read', units: ['repo.code'] });
    expect(crew.body.visibility).toBe('private');
    await owner.client.put(`/teams/${crew.body.id}/members/${member.username}`);

    const names = async (client: ApiClient) => (await client.get(`/orgs/${org.name}/teams`)).body.map((t: { name: string }) => t.name).sort();
    expect(await names(owner.client)).toEqual(['Owners', 'crew', 't-limited', 't-private', 't-public']);
    expect(await names(member.client)).toEqual(['crew', 't-limited', 't-public']);
    expect(await names(outsider.client)).toEqual(['t-public']);
  });

  test('team members see their private team; other org members get 403; outsiders 404', async () => {
    const owner = await newUser();
    const inTeam = await newUser();
    const inOrg = await newUser();
    const outsider = await newUser();
    const org = await newOrg(owner.client);
    const a = await owner.client.post(`/orgs/${org.name}/teams`, { name: 'a', permission: 'read', units: ['repo.code'] });
    const b = await owner.client.post(`/orgs/${org.name}/teams`, { name: 'b', permission: 'read', units: ['repo.code'] });
    await owner.client.put(`/teams/${a.body.id}/members/${inTeam.username}`);
    await owner.client.put(`/teams/${b.body.id}/members/${inOrg.username}`);

    expect((await inTeam.client.get(`/teams/${a.body.id}`)).status).toBe(200);
    expect((await inTeam.client.get(`/teams/${a.body.id}/members/${inTeam.username}`)).body.login).toBe(inTeam.username);
    expect((await inTeam.client.get(`/teams/${a.body.id}/members/${owner.username}`)).status).toBe(404);
    expect((await inOrg.client.undeclared('GET', `/teams/${a.body.id}`)).status).toBe(403);
    expect((await outsider.client.get(`/teams/${a.body.id}`)).status).toBe(404);
    expect((await inTeam.client.undeclared('PUT', `/teams/${a.body.id}/members/${outsider.username}`)).status).toBe(403);

    // A member's search finds only their own teams; the owner's finds all.
    expect((await inTeam.client.get(`/orgs/${org.name}/teams/search`)).body.data.map((t: { name: string }) => t.name)).toEqual(['a']);
    expect((await owner.client.get(`/orgs/${org.name}/teams/search`)).body.data.length).toBe(3);

    const mine = await inTeam.client.get('/user/teams');
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual([expect.objectContaining({ name: 'a', organization: expect.objectContaining({ name: org.name }) })]);
  });
});

describe("a user's permissions in an organization", () => {
  test('follow their best team: owners own, writers write, outsiders may do nothing', async () => {
    const owner = await newUser();
    const writer = await newUser();
    const outsider = await newUser();
    const org = await newOrg(owner.client);
    const team = await owner.client.post(`/orgs/${org.name}/teams`, { name: 'writers', permission: 'write', units: ['repo.code'], can_create_org_repo: true });
    await owner.client.put(`/teams/${team.body.id}/members/${writer.username}`);

    const of = async (login: string) => (await outsider.client.get(`/users/${login}/orgs/${org.name}/permissions`)).body;
    expect(await of(owner.username)).toEqual({ can_read: true, can_write: true, is_admin: true, is_owner: true, can_create_repository: true });
    expect(await of(writer.username)).toEqual({ can_read: true, can_write: true, is_admin: false, is_owner: false, can_create_repository: true });
    expect(await of(outsider.username)).toEqual({ can_read: false, can_write: false, is_admin: false, is_owner: false, can_create_repository: false });

    const hidden = await newOrg(owner.client, { visibility: 'private' });
    expect((await outsider.client.get(`/users/${owner.username}/orgs/${hidden.name}/permissions`)).status).toBe(404);
  });
});

describe('deleting a user', () => {
  test('is refused while they belong to an organization, and allowed once they left', async () => {
    const owner = await newUser();
    const member = await newUser();
    const org = await newOrg(owner.client);
    const team = await owner.client.post(`/orgs/${org.name}/teams`, { name: 'temp', permission: 'read', units: ['repo.code'] });
    await owner.client.put(`/teams/${team.body.id}/members/${member.username}`);
    const refused = await admin.delete(`/admin/users/${member.username}`);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(/user still has membership of organizations/);

    await owner.client.delete(`/teams/${team.body.id}/members/${member.username}`);
    expect((await admin.delete(`/admin/users/${member.username}`)).status).toBe(204);
  });

  test('with purge, leaves their organizations and deletes those they were the last owner of', async () => {
    const leaving = await newUser();
    const stays = await newUser();
    const soleOwned = await newOrg(leaving.client);
    const shared = await newOrg(stays.client);
    const team = await stays.client.post(`/orgs/${shared.name}/teams`, { name: 'guests', permission: 'read', units: ['repo.code'] });
    await stays.client.put(`/teams/${team.body.id}/members/${leaving.username}`);

    expect((await admin.delete(`/admin/users/${leaving.username}?purge=true`)).status).toBe(204);
    expect((await admin.get(`/orgs/${soleOwned.name}`)).status).toBe(404);
    expect((await stays.client.get(`/teams/${team.body.id}/members`)).body).toEqual([]);
    expect((await stays.client.get(`/orgs/${shared.name}`)).status).toBe(200);
  });
});

describe('token scopes', () => {
  test('organization routes need the organization scope', async () => {
    const owner = await newUser();
    const org = await newOrg(owner.client);
    const password = `pass-${owner.username}-word`;
    const token = await anonymous.as({ basic: [owner.username, password] }).post(`/users/${owner.username}/tokens`, { name: 'readonly', scopes: ['read:user'] });
    expect(token.status).toBe(201);
    const withToken = anonymous.as({ token: token.body.sha1 });
    expect((await withToken.get(`/orgs/${org.name}`)).status).toBe(403);
    const orgToken = await anonymous.as({ basic: [owner.username, password] }).post(`/users/${owner.username}/tokens`, { name: 'orgs', scopes: ['read:organization'] });
    const reader = anonymous.as({ token: orgToken.body.sha1 });
    expect((await reader.get(`/orgs/${org.name}`)).status).toBe(200);
    expect((await reader.patch(`/orgs/${org.name}`, { description: 'x' })).status).toBe(403);
  });
});
