// Who sees an organization and who may change it: the visibility matrix of anonymous
// callers, other users, restricted users, members, owners and site administrators.
import { describe, expect, it } from '@jest/globals';
import { ANONYMOUS, type Caller } from '@anvil/kit';
import {
  canAdministerOrg, canSeeOrg, canSeeTeam, listableTeams, canSeeOrgInsides, canSeeUser, listedVisibilities, NO_STANDING, userOrgsFilter, type Standing,
} from '../src/domain/orgs-access.js';
import type { Visibility } from '../src/domain/user.js';

const user = (id: number, extra: Partial<Caller> = {}): Caller =>
  ({ userId: id, login: `u${id}`, isAdmin: false, restricted: false, scopes: ['all'], ...extra });

const other = user(2);
const restricted = user(3, { restricted: true });
const member = user(4);
const owner = user(5);
const siteAdmin = user(6, { isAdmin: true });
const publicOnlyToken = user(7, { scopes: ['public-only', 'read:organization'] });

const MEMBER: Standing = { member: true, owner: false };
const OWNER: Standing = { member: true, owner: true };

const who: Array<[string, Caller, Standing]> = [
  ['anonymous', ANONYMOUS, NO_STANDING],
  ['another user', other, NO_STANDING],
  ['a restricted user', restricted, NO_STANDING],
  ['a restricted member', restricted, MEMBER],
  ['a member', member, MEMBER],
  ['an owner', owner, OWNER],
  ['a site admin', siteAdmin, NO_STANDING],
  ['a public-only token of a member', publicOnlyToken, MEMBER],
];

// Expected sight of [public, limited, private] organizations, row by row of `who`.
const SEES: Record<string, [boolean, boolean, boolean]> = {
  anonymous: [true, false, false],
  'another user': [true, true, false],
  'a restricted user': [true, false, false],
  'a restricted member': [true, true, true],
  'a member': [true, true, true],
  'an owner': [true, true, true],
  'a site admin': [true, true, true],
  'a public-only token of a member': [true, false, false],
};

describe('organization visibility', () => {
  it.each(who)('%s sees exactly the organizations they may', (label, caller, standing) => {
    const sight = (['public', 'limited', 'private'] as Visibility[]).map((visibility) => canSeeOrg({ visibility }, caller, standing));
    expect(sight).toEqual(SEES[label]);
  });

  it('lists public orgs to anonymous callers and public and limited ones to signed-in users, never private ones', () => {
    expect(listedVisibilities(ANONYMOUS)).toEqual(['public']);
    expect(listedVisibilities(other)).toEqual(['public', 'limited']);
    expect(listedVisibilities(siteAdmin)).toEqual(['public', 'limited']);
    expect(listedVisibilities(publicOnlyToken)).toEqual(['public']);
  });
});

describe('acting on an organization', () => {
  it('lets owners and site admins administer it, not plain members', () => {
    expect(canAdministerOrg(owner, OWNER)).toBe(true);
    expect(canAdministerOrg(siteAdmin, NO_STANDING)).toBe(true);
    expect(canAdministerOrg(member, MEMBER)).toBe(false);
    expect(canAdministerOrg(other, NO_STANDING)).toBe(false);
  });

  it('shows teams and hidden members to members and site admins only', () => {
    expect(canSeeOrgInsides(member, MEMBER)).toBe(true);
    expect(canSeeOrgInsides(siteAdmin, NO_STANDING)).toBe(true);
    expect(canSeeOrgInsides(other, NO_STANDING)).toBe(false);
    expect(canSeeOrgInsides(ANONYMOUS, NO_STANDING)).toBe(false);
  });
});

describe("a user's organization list", () => {
  it('shows the user and site admins every membership, others only public memberships of listable orgs', () => {
    const target = { id: member.userId };
    expect(userOrgsFilter(member, target)).toEqual({ visibilities: ['public', 'limited', 'private'], publicMembershipsOnly: false });
    expect(userOrgsFilter(siteAdmin, target)).toEqual({ visibilities: ['public', 'limited', 'private'], publicMembershipsOnly: false });
    expect(userOrgsFilter(other, target)).toEqual({ visibilities: ['public', 'limited'], publicMembershipsOnly: true });
    expect(userOrgsFilter(ANONYMOUS, target)).toEqual({ visibilities: ['public'], publicMembershipsOnly: true });
  });

  it('is hidden with the user: limited users from anonymous callers, private ones from everyone else', () => {
    expect(canSeeUser({ id: 9, visibility: 'limited' }, ANONYMOUS)).toBe(false);
    expect(canSeeUser({ id: 9, visibility: 'limited' }, other)).toBe(true);
    expect(canSeeUser({ id: 9, visibility: 'private' }, other)).toBe(false);
    expect(canSeeUser({ id: 9, visibility: 'private' }, siteAdmin)).toBe(true);
    expect(canSeeUser({ id: other.userId, visibility: 'private' }, other)).toBe(true);
  });
});

describe('team visibility', () => {
  it('lets owners and site admins list every team, members public and limited ones, other users public ones', () => {
    expect(listableTeams(owner, OWNER)).toBe('all');
    expect(listableTeams(siteAdmin, NO_STANDING)).toBe('all');
    expect(listableTeams(member, MEMBER)).toEqual(['public', 'limited']);
    expect(listableTeams(other, NO_STANDING)).toEqual(['public']);
    expect(listableTeams(ANONYMOUS, NO_STANDING)).toEqual([]);
  });

  it('always shows a team to its own members', () => {
    expect(canSeeTeam({ visibility: 'private' }, member, MEMBER, true)).toBe(true);
    expect(canSeeTeam({ visibility: 'private' }, member, MEMBER, false)).toBe(false);
    expect(canSeeTeam({ visibility: 'limited' }, other, NO_STANDING, false)).toBe(false);
    expect(canSeeTeam({ visibility: 'public' }, other, NO_STANDING, false)).toBe(true);
  });
});
