// Managing branch protection rules (GET/POST /branch_protections, GET/PATCH/DELETE
// /branch_protections/{name}): admin permission on the repository; whitelists arrive as
// user logins (unknown ones are 422, as Gitea's GetUserIDsByNames) and are stored as ids.
import { forbidden, invalid, notFound } from '@anvil/kit';
import type { BranchProtection } from './branch-protection.js';
import type { BranchProtectionFields, BranchProtectionStore } from './branch-protection-store.js';
import type { RepositoryAccess } from './repositories.js';
import type { RepositoryStore } from './store.js';

export interface ProtectionDeps {
  store: RepositoryStore;
  protections: BranchProtectionStore;
}

/** A rule as the API speaks it: whitelists by login. */
export type BranchProtectionInput = Omit<BranchProtectionFields,
  'pushWhitelistUserIds' | 'forcePushAllowlistUserIds' | 'mergeWhitelistUserIds' | 'approvalsWhitelistUserIds'> & {
  pushWhitelistUsernames: string[];
  forcePushAllowlistUsernames: string[];
  mergeWhitelistUsernames: string[];
  approvalsWhitelistUsernames: string[];
};

export interface BranchProtectionView {
  rule: BranchProtection;
  pushWhitelistUsernames: string[];
  forcePushAllowlistUsernames: string[];
  mergeWhitelistUsernames: string[];
  approvalsWhitelistUsernames: string[];
}

const USER_LISTS = [
  ['pushWhitelistUsernames', 'pushWhitelistUserIds'],
  ['forcePushAllowlistUsernames', 'forcePushAllowlistUserIds'],
  ['mergeWhitelistUsernames', 'mergeWhitelistUserIds'],
  ['approvalsWhitelistUsernames', 'approvalsWhitelistUserIds'],
] as const;

// Every operation here is for the repository's admins: the gateway's route table says so
// (`repoAccess: 'admin'`) and checks it before calling.

/** A change needs a repository that is not archived (Gitea's mustNotBeArchived). */
function refuseArchived(access: RepositoryAccess): void {
  if (access.repository.archived) throw forbidden('repo is archived', 'repo_archived');
}

const ruleNotFound = () => notFound('The target couldn\'t be found.', 'branch_protection_not_found');

async function views(protections: BranchProtectionStore, rules: BranchProtection[]): Promise<BranchProtectionView[]> {
  const allIds = [...new Set(rules.flatMap((r) => USER_LISTS.flatMap(([, ids]) => r[ids])))];
  const logins = await protections.loginsOf(allIds);
  const named = (ids: number[]) => ids.flatMap((id) => (logins.has(id) ? [logins.get(id)!] : []));
  return rules.map((rule) => ({
    rule,
    pushWhitelistUsernames: named(rule.pushWhitelistUserIds),
    forcePushAllowlistUsernames: named(rule.forcePushAllowlistUserIds),
    mergeWhitelistUsernames: named(rule.mergeWhitelistUserIds),
    approvalsWhitelistUsernames: named(rule.approvalsWhitelistUserIds),
  }));
}

const TEAM_LISTS = ['pushWhitelistTeams', 'forcePushAllowlistTeams', 'mergeWhitelistTeams', 'approvalsWhitelistTeams'] as const;

/**
 * Team whitelists as Gitea keeps them: only an organization's repositories have teams (a
 * user's repository drops the lists), and a name that is not a team of the org is a 422.
 */
async function resolveTeams<T extends Partial<Record<(typeof TEAM_LISTS)[number], string[]>>>(
  protections: BranchProtectionStore, owner: { id: number; type: string }, input: T,
): Promise<T> {
  const named = TEAM_LISTS.flatMap((key) => input[key] ?? []);
  if (owner.type !== 'organization') {
    const out = { ...input };
    for (const key of TEAM_LISTS) if (out[key] !== undefined) out[key] = [] as never;
    return out;
  }
  if (named.length === 0) return input;
  const teams = await protections.teamNamesOf(owner.id);
  const unknown = named.find((team) => !teams.has(team.toLowerCase()));
  if (unknown !== undefined) throw invalid(`team does not exist [org_id: ${owner.id}, name: ${unknown}]`, 'team_not_found');
  // Kept as the org spells them (Gitea stores the teams' ids and shows their names).
  const out = { ...input };
  for (const key of TEAM_LISTS) {
    if (out[key] !== undefined) out[key] = [...new Set(out[key]!.map((team) => teams.get(team.toLowerCase())!))] as never;
  }
  return out;
}

/** Turns login lists into id lists; an unknown login is Gitea's 422. */
async function resolveUsers(protections: BranchProtectionStore, input: Partial<BranchProtectionInput>): Promise<Partial<BranchProtectionFields>> {
  const { pushWhitelistUsernames, forcePushAllowlistUsernames, mergeWhitelistUsernames, approvalsWhitelistUsernames, ...rest } = input;
  const fields: Partial<BranchProtectionFields> = { ...rest };
  const logins = [...new Set([pushWhitelistUsernames, forcePushAllowlistUsernames, mergeWhitelistUsernames, approvalsWhitelistUsernames].flatMap((l) => l ?? []))];
  const ids = await protections.idsOf(logins);
  for (const login of logins) {
    if (!ids.has(login.toLowerCase())) throw invalid(`user does not exist [uid: 0, name: ${login}]`, 'user_not_found');
  }
  const toIds = (list: string[]) => [...new Set(list.map((l) => ids.get(l.toLowerCase())!))];
  for (const [names, idKey] of USER_LISTS) {
    const list = input[names];
    if (list !== undefined) fields[idKey] = toIds(list);
  }
  return fields;
}

export async function listBranchProtections(deps: ProtectionDeps, access: RepositoryAccess): Promise<BranchProtectionView[]> {
  return views(deps.protections, await deps.protections.list(access.repository.id));
}

export async function getBranchProtection(deps: ProtectionDeps, access: RepositoryAccess, ruleName: string): Promise<BranchProtectionView> {
  const rule = await deps.protections.find(access.repository.id, ruleName);
  if (!rule) throw ruleNotFound();
  return (await views(deps.protections, [rule]))[0];
}

export const DEFAULT_PROTECTION: BranchProtectionInput = {
  ruleName: '', priority: 0, enablePush: false, enablePushWhitelist: false, pushWhitelistUsernames: [], pushWhitelistTeams: [],
  pushWhitelistDeployKeys: false, enableForcePush: false, enableForcePushAllowlist: false, forcePushAllowlistUsernames: [],
  forcePushAllowlistTeams: [], forcePushAllowlistDeployKeys: false, enableMergeWhitelist: false, mergeWhitelistUsernames: [],
  mergeWhitelistTeams: [], enableStatusCheck: false, statusCheckContexts: [], requiredApprovals: 0, enableApprovalsWhitelist: false,
  approvalsWhitelistUsernames: [], approvalsWhitelistTeams: [], blockOnRejectedReviews: false, blockOnOfficialReviewRequests: false,
  blockOnOutdatedBranch: false, dismissStaleApprovals: false, ignoreStaleApprovals: false, requireSignedCommits: false,
  protectedFilePatterns: '', unprotectedFilePatterns: '', blockAdminMergeOverride: false,
};

function validate(input: Partial<BranchProtectionInput>): void {
  if (input.requiredApprovals !== undefined && input.requiredApprovals < 0) throw invalid('[required_approvals]: Min', 'invalid_required_approvals');
  if (input.ruleName !== undefined && (!input.ruleName.trim() || input.ruleName.length > 255)) throw invalid('[rule_name]: Required', 'invalid_rule_name');
}

/** POST /branch_protections; a rule without a priority goes after the existing ones. */
export async function createBranchProtection(deps: ProtectionDeps, access: RepositoryAccess, input: BranchProtectionInput): Promise<BranchProtectionView> {
  refuseArchived(access);
  validate(input);
  const fields = await resolveUsers(deps.protections, await resolveTeams(deps.protections, access.owner, input));
  if (!input.priority) {
    const existing = await deps.protections.list(access.repository.id);
    fields.priority = existing.reduce((max, r) => Math.max(max, r.priority), 0) + 1;
  }
  const rule = await deps.protections.insert(access.repository.id, { ...(await resolveUsers(deps.protections, DEFAULT_PROTECTION)), ...fields } as BranchProtectionFields);
  return (await views(deps.protections, [rule]))[0];
}

/** PATCH /branch_protections/{name}: only the given fields change; the rule name does not. */
export async function editBranchProtection(deps: ProtectionDeps, access: RepositoryAccess, ruleName: string, input: Partial<BranchProtectionInput>): Promise<BranchProtectionView> {
  refuseArchived(access);
  const rule = await deps.protections.find(access.repository.id, ruleName);
  if (!rule) throw ruleNotFound();
  const { ruleName: _ignored, ...patch } = input;
  validate(patch);
  const updated = await deps.protections.update(rule.id, await resolveUsers(deps.protections, await resolveTeams(deps.protections, access.owner, patch)));
  return (await views(deps.protections, [updated]))[0];
}

export async function deleteBranchProtection(deps: ProtectionDeps, access: RepositoryAccess, ruleName: string): Promise<void> {
  refuseArchived(access);
  const rule = await deps.protections.find(access.repository.id, ruleName);
  if (!rule) throw ruleNotFound();
  await deps.protections.remove(rule.id);
}

/** POST /branch_protections/priority: the given rule ids get priorities 1, 2, ... in that order. */
export async function updateBranchProtectionPriorities(deps: ProtectionDeps, access: RepositoryAccess, ids: number[]): Promise<void> {
  refuseArchived(access);
  const rules = new Map((await deps.protections.list(access.repository.id)).map((r) => [r.id, r]));
  if (new Set(ids).size !== ids.length || ids.some((id) => !rules.has(id))) throw invalid('[ids]: unknown or repeated branch protection ids', 'invalid_ids');
  for (const [index, id] of ids.entries()) {
    if (rules.get(id)!.priority !== index + 1) await deps.protections.update(id, { priority: index + 1 });
  }
}
