// Gitea matches branch protection rule names and protected file patterns with gobwas/glob:
// `*` and `?` stop at the separators, `**` crosses them, `[abc]`/`[!abc]` classes and
// `{a,b}` alternatives (the kit's globToRegExp), matched case-insensitively here (Gitea
// lower-cases both the pattern and the name).

import { globToRegExp } from '@anvil/kit';

export { globToRegExp };

/** Whether `name` has glob syntax (Gitea's IsRuleNameSpecial). */
export function isGlob(name: string): boolean {
  return /[*?[\]{}\\]/.test(name);
}

export function globMatch(pattern: string, value: string, separators: string): boolean {
  return globToRegExp(pattern.toLowerCase(), separators).test(value.toLowerCase());
}
