// Which logins a user may take (Gitea's models/user IsUsableUsername and models/db
// IsUsableName, with Gitea's error texts).
import { invalid } from '@anvil/kit';

// Starts with a letter or digit; then letters, digits, `-`, `_`, `.` (Go's \w is ASCII).
const VALID_LOGIN = /^[0-9a-zA-Z][-.\w]*$/;
// No two special characters in a row, and none at the end.
const INVALID_LOGIN = /[-._]{2,}|[-._]$/;

/** Names the web UI or the API claims for itself (Gitea 1.27's reservedUsernames). */
export const RESERVED_LOGINS: ReadonlySet<string> = new Set([
  '.', '..', '.well-known',
  'api', 'metrics', 'v2',
  'assets', 'attachments',
  'avatar', 'avatars', 'repo-avatars',
  'captcha', 'login', 'org', 'repo', 'user',
  'explore', 'issues', 'pulls', 'milestones', 'notifications',
  'favicon.ico', 'manifest.json', 'robots.txt', 'sitemap.xml', 'ssh_info', 'swagger.v1.json',
  'ghost', 'gitea-actions',
]);

/** Suffixes the `/{username}` route serves itself (keys, feeds, avatars). */
export const RESERVED_LOGIN_PATTERNS: readonly string[] = ['*.keys', '*.gpg', '*.rss', '*.atom', '*.png'];

export function isValidLogin(login: string): boolean {
  return VALID_LOGIN.test(login) && !INVALID_LOGIN.test(login);
}

/** Throws Gitea's error when `login` cannot be a user's login; raised as `invalid` (422). */
export function assertUsableLogin(login: string): void {
  if (!isValidLogin(login)) {
    throw invalid(`name is invalid [${login}]: must be valid alpha or numeric or dash(-_) or dot characters`, 'name_chars_not_allowed');
  }
  const name = login.trim().toLowerCase();
  if (name.length === 0) throw invalid('name is empty', 'name_empty');
  if (RESERVED_LOGINS.has(name)) throw invalid(`name is reserved [name: ${name}]`, 'name_reserved');
  for (const pattern of RESERVED_LOGIN_PATTERNS) {
    const matches = pattern.startsWith('*') ? name.endsWith(pattern.slice(1)) : pattern.endsWith('*') && name.startsWith(pattern.slice(0, -1));
    if (matches) throw invalid(`name pattern is not allowed [pattern: ${pattern}]`, 'name_pattern_not_allowed');
  }
}
