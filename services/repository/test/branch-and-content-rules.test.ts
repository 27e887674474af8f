// Branch protection rules (docs/branches-and-contents-checklist.md): team whitelists match team names whatever
// their case, as Gitea's (which resolves names to team ids) do.
import { describe, expect, it } from '@jest/globals';
import { canUserForcePush, canUserMerge, canUserPush, type BranchProtection, type Pusher } from '../src/domain/branch-protection.js';
import { DEFAULT_PROTECTION } from '../src/domain/branch-protections.js';

function rule(over: Partial<BranchProtection>): BranchProtection {
  const { pushWhitelistUsernames: _a, forcePushAllowlistUsernames: _b, mergeWhitelistUsernames: _c, approvalsWhitelistUsernames: _d, ...base } = DEFAULT_PROTECTION;
  return {
    ...base, id: 1, repositoryId: 1, ruleName: 'main', pushWhitelistUserIds: [], forcePushAllowlistUserIds: [], mergeWhitelistUserIds: [],
    approvalsWhitelistUserIds: [], created_at: new Date(), updated_at: new Date(), ...over,
  };
}

const member: Pusher = { id: 8, login: 'grace', permission: 'write', teams: ['Release-Team'] };
const outsider: Pusher = { id: 9, login: 'alan', permission: 'write', teams: ['docs'] };

describe('team whitelists', () => {
  it('let members of a listed team push, force-push and merge, whatever the case the rule spells the team in', () => {
    const listed = rule({
      enablePush: true, enablePushWhitelist: true, pushWhitelistTeams: ['release-team'],
      enableForcePush: true, enableForcePushAllowlist: true, forcePushAllowlistTeams: ['RELEASE-TEAM'],
      enableMergeWhitelist: true, mergeWhitelistTeams: ['Release-team'],
    });
    expect([canUserPush(listed, member), canUserForcePush(listed, member), canUserMerge(listed, member)]).toEqual([true, true, true]);
    expect([canUserPush(listed, outsider), canUserForcePush(listed, outsider), canUserMerge(listed, outsider)]).toEqual([false, false, false]);
  });

  it('never let a team member push where pushes are disabled or without write access', () => {
    expect(canUserPush(rule({ enablePush: false, enablePushWhitelist: true, pushWhitelistTeams: ['release-team'] }), member)).toBe(false);
    expect(canUserPush(rule({ enablePush: true, enablePushWhitelist: true, pushWhitelistTeams: ['release-team'] }), { ...member, permission: 'read' })).toBe(false);
  });
});
