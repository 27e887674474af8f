// Copied from the repository service's domain/glob.ts (services share no code but the kit):
// Gitea matches webhook branch filters with the same gobwas/glob dialect.
function escapeRegExp(ch: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(ch) ? `\\${ch}` : ch;
}
export function globToRegExp(pattern: string, separators: string): RegExp {
  const notSep = separators ? `[^${[...separators].map(escapeRegExp).join('')}]` : '.';
  let out = '';
  let braces = 0;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\' && i + 1 < pattern.length) {
      out += escapeRegExp(pattern[++i]);
    } else if (ch === '*') {
      if (pattern[i + 1] === '*') {
        out += '.*';
        i++;
      } else {
        out += `${notSep}*`;
      }
    } else if (ch === '?') {
      out += notSep;
    } else if (ch === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end < 0) {
        out += '\\[';
        continue;
      }
      let body = pattern.slice(i + 1, end);
      const negate = body.startsWith('!');
      if (negate) body = body.slice(1);
      out += `[${negate ? '^' : ''}${body.replace(/[\\\]^]/g, (c) => `\\${c}`)}]`;
      i = end;
    } else if (ch === '{') {
      braces++;
      out += '(?:';
    } else if (ch === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (ch === ',' && braces > 0) {
      out += '|';
    } else {
      out += escapeRegExp(ch);
    }
  }
  if (braces > 0) return /(?!)/; // an unbalanced pattern matches nothing, as gobwas refuses to compile it
  return new RegExp(`^${out}$`, 's');
}

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
