// Webhook branch filters in Gitea's glob dialect (the kit's globToRegExp).
import { globToRegExp } from '@anvil/kit';

/**
 * Gitea's checkBranch: an empty filter or `*` passes every branch; otherwise the glob,
 * compiled without separators (so `*` crosses `/`) and matched case-sensitively.
 */
export function branchFilterMatches(filter: string, branch: string): boolean {
  if (filter === '' || filter === '*') return true;
  return globToRegExp(filter, '').test(branch);
}

/** Whether a branch filter compiles (an unbalanced `{` does not). */
export function isValidBranchFilter(filter: string): boolean {
  return filter === '' || globToRegExp(filter, '').source !== '(?!)';
}
