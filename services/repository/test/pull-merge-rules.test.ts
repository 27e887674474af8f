// The merge rules of a branch protection as a pure rule over plain facts.
import { describe, expect, it } from '@jest/globals';
import type { BranchProtection } from '../src/domain/branch-protection.js';
import { mayOverride, mergeRefusal, statusChecksPass } from '../src/domain/pull-merge-rules.js';

const rule = (over: Partial<BranchProtection>): BranchProtection => ({
  id: 1, repositoryId: 1, ruleName: 'main', priority: 1, enablePush: true, enablePushWhitelist: false, pushWhitelistUserIds: [], pushWhitelistTeams: [],
  pushWhitelistDeployKeys: false, enableForcePush: false, enableForcePushAllowlist: false, forcePushAllowlistUserIds: [], forcePushAllowlistTeams: [],
  forcePushAllowlistDeployKeys: false, enableMergeWhitelist: false, mergeWhitelistUserIds: [], mergeWhitelistTeams: [], enableStatusCheck: false,
  statusCheckContexts: [], requiredApprovals: 0, enableApprovalsWhitelist: false, approvalsWhitelistUserIds: [], approvalsWhitelistTeams: [],
  blockOnRejectedReviews: false, blockOnOfficialReviewRequests: false, blockOnOutdatedBranch: false, dismissStaleApprovals: false,
  ignoreStaleApprovals: false, requireSignedCommits: false, protectedFilePatterns: '', unprotectedFilePatterns: '', blockAdminMergeOverride: false,
  created_at: new Date(0), updated_at: new Date(0), ...over,
});
const facts = { verdicts: [], statuses: [], behind: 0 };
const approval = (reviewerId: number, over: object = {}) => ({ reviewerId, state: 'APPROVED', official: true, stale: false, ...over });

describe('merge rules', () => {
  it('lets everything through without a rule', () => {
    expect(mergeRefusal(undefined, { ...facts, behind: 3 })).toBeUndefined();
  });

  it('counts official approvals only, and only whitelisted ones when an approvals whitelist is set', () => {
    expect(mergeRefusal(rule({ requiredApprovals: 1 }), facts)).toBe('Does not have enough approvals');
    expect(mergeRefusal(rule({ requiredApprovals: 1 }), { ...facts, verdicts: [approval(2, { official: false })] })).toBe('Does not have enough approvals');
    expect(mergeRefusal(rule({ requiredApprovals: 1 }), { ...facts, verdicts: [approval(2)] })).toBeUndefined();
    const whitelisted = rule({ requiredApprovals: 1, enableApprovalsWhitelist: true, approvalsWhitelistUserIds: [3], approvalsWhitelistTeams: ['Reviewers'] });
    expect(mergeRefusal(whitelisted, { ...facts, verdicts: [approval(2)] })).toBe('Does not have enough approvals');
    expect(mergeRefusal(whitelisted, { ...facts, verdicts: [approval(3)] })).toBeUndefined();
    expect(mergeRefusal(whitelisted, { ...facts, verdicts: [approval(4)], teamsOf: () => ['reviewers'] })).toBeUndefined();
  });

  it('does not count stale approvals when stale approvals are dismissed or ignored', () => {
    const stale = { ...facts, verdicts: [approval(2, { stale: true })] };
    expect(mergeRefusal(rule({ requiredApprovals: 1 }), stale)).toBeUndefined();
    expect(mergeRefusal(rule({ requiredApprovals: 1, dismissStaleApprovals: true }), stale)).toBe('Does not have enough approvals');
    expect(mergeRefusal(rule({ requiredApprovals: 1, ignoreStaleApprovals: true }), stale)).toBe('Does not have enough approvals');
  });

  it('blocks on requested changes, official review requests and an outdated head when the rule says so', () => {
    const rejected = { ...facts, verdicts: [{ reviewerId: 2, state: 'REQUEST_CHANGES', official: true, stale: false }] };
    expect(mergeRefusal(rule({}), rejected)).toBeUndefined();
    expect(mergeRefusal(rule({ blockOnRejectedReviews: true }), rejected)).toBe('There are requested changes');
    const requested = { ...facts, verdicts: [{ reviewerId: 2, state: 'REQUEST_REVIEW', official: true, stale: false }] };
    expect(mergeRefusal(rule({ blockOnOfficialReviewRequests: true }), requested)).toBe('There are official review requests');
    expect(mergeRefusal(rule({ blockOnOutdatedBranch: true }), { ...facts, behind: 1 })).toBe('The head branch is behind the base branch');
  });

  it('requires every required status context to succeed, globs included', () => {
    expect(statusChecksPass(['ci/*'], [{ context: 'ci/build', state: 'success' }])).toBe(true);
    expect(statusChecksPass(['ci/*'], [{ context: 'ci/build', state: 'pending' }])).toBe(false);
    expect(statusChecksPass(['ci/*'], [])).toBe(false);
    expect(mergeRefusal(rule({ enableStatusCheck: true, statusCheckContexts: ['lint'] }), facts)).toBe('Not all required status checks successful');
  });

  it('lets an admin override with force_merge unless the rule blocks it', () => {
    const admin = { id: 1, login: 'a', permission: 'admin' as const };
    expect(mayOverride(rule({}), admin, true)).toBe(true);
    expect(mayOverride(rule({ blockAdminMergeOverride: true }), admin, true)).toBe(false);
    expect(mayOverride(rule({}), { ...admin, permission: 'write' }, true)).toBe(false);
    expect(mayOverride(rule({}), admin, false)).toBe(false);
  });
});
