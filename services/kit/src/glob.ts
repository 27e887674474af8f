// Gitea's glob dialect (gobwas/glob), shared by branch protection rules, protected file
// patterns and webhook branch filters: `*` and `?` stop at the separators, `**` crosses
// them, `[abc]`/`[!abc]` classes and `{a,b}` alternatives, compiled to a RegExp.

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
