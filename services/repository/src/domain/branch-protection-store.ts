// How branch protection rules are read and written; src/store/branch-protections.ts
// implements it over Prisma (table `branch_protection`).
import type { BranchProtection } from './branch-protection.js';

export type BranchProtectionFields = Omit<BranchProtection, 'id' | 'repositoryId' | 'created_at' | 'updated_at'>;

export interface BranchProtectionStore {
  list(repositoryId: number): Promise<BranchProtection[]>;
  find(repositoryId: number, ruleName: string): Promise<BranchProtection | undefined>;
  /** Throws already_exists when the repository has a rule of that name. */
  insert(repositoryId: number, fields: BranchProtectionFields): Promise<BranchProtection>;
  update(id: number, fields: Partial<BranchProtectionFields>): Promise<BranchProtection>;
  remove(id: number): Promise<void>;
  /** Users by id and by login (whitelists are addressed by login, stored by id). */
  loginsOf(ids: number[]): Promise<Map<number, string>>;
  idsOf(logins: string[]): Promise<Map<string, number>>;
  /** An organization's team names by their lower-cased form (repository's read model of identity's). */
  teamNamesOf(orgId: number): Promise<Map<string, string>>;
}
