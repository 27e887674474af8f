// The permission matrix for organization-owned repositories: who gets what through org
// ownership, teams and org visibility (Gitea's GetUserRepoPermission).
import { describe, expect, it } from '@jest/globals';
import { canCreateOrgRepository, orgFactsOf, reachesPullRequests, teamMode, type MemberTeam } from '../src/domain/org-access.js';
import { permissionFlags, permissionOf, type AccessMode } from '../src/domain/permission.js';

const ORG = 100;
const REPO = 7;
const OTHER_REPO = 8;

function team(over: Partial<MemberTeam> = {}): MemberTeam {
  return { teamId: 1, orgId: ORG, permission: 'read', unitsMap: {}, includesAllRepositories: false, canCreateOrgRepo: false, repositoryIds: [REPO], ...over };
}

type Who = 'anonymous' | 'non-member' | 'read team' | 'write team' | 'owner' | 'site admin' | 'member without the repo';
const TEAMS: Record<Who, MemberTeam[]> = {
  anonymous: [],
  'non-member': [],
  'read team': [team({ permission: 'read' })],
  'write team': [team({ permission: 'write' })],
  owner: [team({ permission: 'owner', repositoryIds: [] })],
  'site admin': [],
  'member without the repo': [team({ permission: 'write', repositoryIds: [OTHER_REPO] })],
};

function permission(who: Who, visibility: 'public' | 'limited' | 'private', isPrivate: boolean): AccessMode {
  const caller = { userId: who === 'anonymous' ? 0 : 20, isAdmin: who === 'site admin', restricted: false };
  return permissionOf({
    repository: { owner_id: ORG, private: isPrivate }, owner: { visibility }, caller,
    ...orgFactsOf(TEAMS[who], ORG, REPO),
  });
}

describe('permission on an organization\'s repository', () => {
  // [who, public org public repo, limited org public repo, private org public repo, private repo (any org)]
  const MATRIX: Array<[Who, AccessMode, AccessMode, AccessMode, AccessMode]> = [
    ['anonymous', 'read', 'none', 'none', 'none'],
    ['non-member', 'read', 'read', 'none', 'none'],
    ['member without the repo', 'read', 'read', 'read', 'none'],
    ['read team', 'read', 'read', 'read', 'read'],
    ['write team', 'write', 'write', 'write', 'write'],
    ['owner', 'owner', 'owner', 'owner', 'owner'],
    ['site admin', 'admin', 'admin', 'admin', 'admin'],
  ];

  it.each(MATRIX)('for %s: %s on a public org, %s on a limited org, %s on a private org, %s on a private repository', (who, pub, limited, priv, privateRepo) => {
    expect(permission(who, 'public', false)).toBe(pub);
    expect(permission(who, 'limited', false)).toBe(limited);
    expect(permission(who, 'private', false)).toBe(priv);
    for (const visibility of ['public', 'limited', 'private'] as const) expect(permission(who, visibility, true)).toBe(privateRepo);
  });

  it('maps a read team to pull only, a write team to push, an owner to admin', () => {
    expect(permissionFlags(permission('read team', 'public', true))).toEqual({ admin: false, push: false, pull: true });
    expect(permissionFlags(permission('write team', 'public', true))).toEqual({ admin: false, push: true, pull: true });
    expect(permissionFlags(permission('owner', 'public', true))).toEqual({ admin: true, push: true, pull: true });
  });

  it('gives a team that includes all repositories access to every repository of its org', () => {
    const facts = orgFactsOf([team({ permission: 'write', includesAllRepositories: true, repositoryIds: [] })], ORG, REPO);
    expect(facts.teamModes).toEqual(['write']);
  });

  it('ignores teams of other organizations', () => {
    const facts = orgFactsOf([team({ orgId: ORG + 1, permission: 'owner' })], ORG, REPO);
    expect(facts).toEqual({ isOrgMember: false, isOrgOwner: false, teamModes: [] });
  });

  it('takes the strongest of several teams', () => {
    const facts = orgFactsOf([team({ teamId: 1, permission: 'read' }), team({ teamId: 2, permission: 'write' })], ORG, REPO);
    expect(permissionOf({ repository: { owner_id: ORG, private: true }, owner: { visibility: 'public' }, caller: { userId: 20, isAdmin: false, restricted: false }, ...facts })).toBe('write');
  });
});

describe('a team\'s access mode', () => {
  it('is its permission, admin teams owning their repositories as in Gitea', () => {
    expect(teamMode({ permission: 'read', unitsMap: {} })).toBe('read');
    expect(teamMode({ permission: 'write', unitsMap: {} })).toBe('write');
    expect(teamMode({ permission: 'admin', unitsMap: {} })).toBe('owner');
  });

  it('is the strongest unit for a unit-based team', () => {
    expect(teamMode({ permission: 'none', unitsMap: { 'repo.code': 'read', 'repo.issues': 'write' } })).toBe('write');
    expect(teamMode({ permission: 'none', unitsMap: {} })).toBe('none');
  });
});

describe('who may create repositories in an organization', () => {
  it('allows owners and teams with can_create_org_repo, nobody else', () => {
    expect(canCreateOrgRepository([team({ permission: 'owner' })], ORG)).toBe(true);
    expect(canCreateOrgRepository([team({ canCreateOrgRepo: true })], ORG)).toBe(true);
    expect(canCreateOrgRepository([team()], ORG)).toBe(false);
    expect(canCreateOrgRepository([], ORG)).toBe(false);
  });
});

describe('who may ask for reviews through a team (Gitea\'s CanDoerChangeReviewRequests)', () => {
  it('is a member of a team that has the repository and reads its pull requests, whatever else it may do', () => {
    expect(reachesPullRequests([team({ permission: 'read' })], ORG, REPO)).toBe(true);
    expect(reachesPullRequests([team({ permission: 'none', unitsMap: { 'repo.pulls': 'read', 'repo.code': 'none' } })], ORG, REPO)).toBe(true);
  });

  it('is not a member whose team lacks the repository, reads no pull requests, or belongs to another organization', () => {
    expect(reachesPullRequests([team({ repositoryIds: [OTHER_REPO] })], ORG, REPO)).toBe(false);
    expect(reachesPullRequests([team({ permission: 'none', unitsMap: { 'repo.code': 'write' } })], ORG, REPO)).toBe(false);
    expect(reachesPullRequests([team({ orgId: ORG + 1 })], ORG, REPO)).toBe(false);
    expect(reachesPullRequests([], ORG, REPO)).toBe(false);
  });
});
