import { describe, expect, it } from '@jest/globals';
import { checkProtectedPush, ruleFor, ruleMatches, matchingPath, type BranchProtection, type PushGitFacts, type Pusher } from '../src/domain/branch-protection.js';
import { DEFAULT_PROTECTION } from '../src/domain/branch-protections.js';
import { globMatch } from '../src/domain/glob.js';
import { pusherTeamNames } from '../src/domain/org-access.js';

const Z = '0'.repeat(40);
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

let nextId = 1;
function rule(ruleName: string, over: Partial<BranchProtection> = {}): BranchProtection {
  const { pushWhitelistUsernames: _a, forcePushAllowlistUsernames: _b, mergeWhitelistUsernames: _c, approvalsWhitelistUsernames: _d, ...base } = DEFAULT_PROTECTION;
  return {
    ...base, id: nextId++, repositoryId: 1, ruleName, pushWhitelistUserIds: [], forcePushAllowlistUserIds: [], mergeWhitelistUserIds: [],
    approvalsWhitelistUserIds: [], created_at: new Date(), updated_at: new Date(), ...over,
  };
}

const writer: Pusher = { id: 7, login: 'ada', permission: 'write' };

function facts(over: Partial<{ ancestor: boolean; files: string[]; unsigned: string }> = {}): PushGitFacts {
  return {
    isAncestor: async () => over.ancestor ?? true,
    changedFiles: async () => over.files ?? ['README.md'],
    firstUnverifiedCommit: async () => over.unsigned,
  };
}

function push(rules: BranchProtection[], over: Partial<{ branch: string; pusher: Pusher; oldSha: string; newSha: string }> = {}) {
  return { rules, defaultBranch: 'main', branch: 'main', pusher: writer, oldSha: A, newSha: B, ...over };
}

describe('which rule protects a branch', () => {
  it('matches a plain rule name to exactly that branch, ignoring case', () => {
    expect(ruleMatches('main', 'main')).toBe(true);
    expect(ruleMatches('Main', 'main')).toBe(true);
    expect(ruleMatches('main', 'main2')).toBe(false);
  });

  it('matches globs with * stopping at / and ** crossing it', () => {
    expect(ruleMatches('release/*', 'release/v1')).toBe(true);
    expect(ruleMatches('release/*', 'release/v1/hotfix')).toBe(false);
    expect(ruleMatches('release/**', 'release/v1/hotfix')).toBe(true);
    expect(ruleMatches('v?.x', 'v1.x')).toBe(true);
    expect(ruleMatches('{main,master}', 'master')).toBe(true);
    expect(ruleMatches('[!a]*', 'abc')).toBe(false);
  });

  it('tries rules by priority, a plain name before a glob of the same priority', () => {
    const glob = rule('*', { priority: 1 });
    const plain = rule('main', { priority: 1 });
    expect(ruleFor([glob, plain], 'main')).toBe(plain);
    const first = rule('ma*', { priority: 0 });
    expect(ruleFor([glob, plain, first], 'main')).toBe(first);
    expect(ruleFor([plain], 'dev')).toBeUndefined();
  });

  it('matches protected file patterns where * stops at dots and slashes', () => {
    expect(matchingPath(['*.md'], ['docs/a.md', 'README.md'])).toBe('README.md');
    expect(matchingPath(['**.md'], ['docs/a.md'])).toBe('docs/a.md');
    expect(globMatch('.github/**', '.github/workflows/ci.yml', './')).toBe(true);
  });
});

describe('whether a push may land', () => {
  it('lets anything through on an unprotected branch', async () => {
    expect(await checkProtectedPush(push([rule('release/*')]), facts())).toEqual({ allowed: true });
  });

  it('refuses pushing to a protected branch whose pushes are disabled', async () => {
    expect(await checkProtectedPush(push([rule('main')]), facts())).toMatchObject({ allowed: false, message: 'Not allowed to push to protected branch main' });
  });

  it('lets writers push when pushes are enabled without a whitelist, and only whitelisted users with one', async () => {
    expect(await checkProtectedPush(push([rule('main', { enablePush: true })]), facts())).toEqual({ allowed: true });
    const whitelisted = [rule('main', { enablePush: true, enablePushWhitelist: true, pushWhitelistUserIds: [7] })];
    expect(await checkProtectedPush(push(whitelisted), facts())).toEqual({ allowed: true });
    expect(await checkProtectedPush(push(whitelisted, { pusher: { ...writer, id: 8 } }), facts())).toMatchObject({ allowed: false });
  });

  it('lets members of a whitelisted team push, and nobody else outside the user whitelist', async () => {
    const byTeam = [rule('main', { enablePush: true, enablePushWhitelist: true, pushWhitelistTeams: ['releasers'] })];
    expect(await checkProtectedPush(push(byTeam, { pusher: { ...writer, id: 8, teams: ['releasers'] } }), facts())).toEqual({ allowed: true });
    expect(await checkProtectedPush(push(byTeam, { pusher: { ...writer, id: 8, teams: ['docs'] } }), facts())).toMatchObject({ allowed: false });
  });

  it("names the pusher's teams only in an organization that owns the repository", async () => {
    const teams = [{ teamId: 1, orgId: 5, name: 'releasers', permission: 'write', unitsMap: {}, includesAllRepositories: false, canCreateOrgRepo: false, repositoryIds: [] }];
    const store = { memberTeamsOf: async (userId: number, orgIds: number[] | undefined) => (userId === 8 && orgIds?.includes(5) ? teams : []) };
    expect(await pusherTeamNames(store, { id: 5, type: 'organization' }, 8)).toEqual(['releasers']);
    expect(await pusherTeamNames(store, { id: 5, type: 'user' }, 8)).toEqual([]);
    expect(await pusherTeamNames(store, { id: 5, type: 'organization' }, 0)).toEqual([]);
  });

  it('refuses a force push unless the rule allows it', async () => {
    const open = rule('main', { enablePush: true });
    expect(await checkProtectedPush(push([open]), facts({ ancestor: false }))).toMatchObject({ allowed: false, message: 'branch main is protected from force push' });
    const forceOk = rule('main', { enablePush: true, enableForcePush: true });
    expect(await checkProtectedPush(push([forceOk]), facts({ ancestor: false }))).toEqual({ allowed: true });
    const allowlist = rule('main', { enablePush: true, enableForcePush: true, enableForcePushAllowlist: true, forcePushAllowlistUserIds: [99] });
    expect(await checkProtectedPush(push([allowlist]), facts({ ancestor: false }))).toMatchObject({ allowed: false });
  });

  it('refuses deleting a protected branch and the default branch', async () => {
    expect(await checkProtectedPush(push([rule('dev', { enablePush: true })], { branch: 'dev', newSha: Z }), facts())).toMatchObject({ allowed: false, message: 'branch dev is protected from deletion' });
    expect(await checkProtectedPush(push([], { newSha: Z }), facts())).toMatchObject({ allowed: false, reason: 'branch_is_default' });
  });

  it('refuses changes to protected files even from a whitelisted pusher', async () => {
    const r = rule('main', { enablePush: true, enablePushWhitelist: true, pushWhitelistUserIds: [7], protectedFilePatterns: 'secrets/*;*.lock' });
    expect(await checkProtectedPush(push([r]), facts({ files: ['src/a.ts', 'yarn.lock'] }))).toMatchObject({ allowed: false, message: 'branch main is protected from changing file yarn.lock' });
    expect(await checkProtectedPush(push([r]), facts({ files: ['src/a.ts'] }))).toEqual({ allowed: true });
  });

  it('lets a non-pusher change only unprotected files', async () => {
    const r = rule('main', { unprotectedFilePatterns: 'docs/**' });
    expect(await checkProtectedPush(push([r]), facts({ files: ['docs/a.md'] }))).toEqual({ allowed: true });
    expect(await checkProtectedPush(push([r]), facts({ files: ['docs/a.md', 'src/x.ts'] }))).toMatchObject({ allowed: false });
  });

  it('refuses unsigned commits when signed commits are required', async () => {
    const r = rule('main', { enablePush: true, requireSignedCommits: true });
    expect(await checkProtectedPush(push([r]), facts({ unsigned: B }))).toMatchObject({ allowed: false, message: `branch main is protected from unverified commit ${B}` });
    expect(await checkProtectedPush(push([r]), facts())).toEqual({ allowed: true });
  });

  it('uses the changed files the caller already knows (the contents API)', async () => {
    const r = rule('main', { enablePush: true, protectedFilePatterns: 'locked.txt' });
    const input = { ...push([r]), changedFiles: ['locked.txt'] };
    expect(await checkProtectedPush(input, facts({ files: [] }))).toMatchObject({ allowed: false, reason: 'protected_file' });
  });
});
