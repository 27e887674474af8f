// Git's naming rules, in one place for the gateway (which refuses a bad name before any
// service sees it, as Gitea's `GitRefName` binding does) and the repository service (which
// checks again before any git process runs). Pure string checks: cheap on any input size,
// because the length is checked first.

/** Git refuses ref names longer than this in practice (Gitea's limit for a ref name). */
export const MAX_REF_NAME_BYTES = 255;

// Control characters, space, DEL and ~ ^ : ? * [ \ are never part of a ref name.
const FORBIDDEN_CHARACTER = /[\x00-\x20\x7f~^:?*[\\]/;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function utf8Length(value: string): number {
  return Buffer.byteLength(value, 'utf8');
}

/**
 * git check-ref-format's rules for a ref name, short (`main`, `feature/x`) or full
 * (`refs/heads/main`), plus Anvil's own: at most 255 bytes and never starting with `-`, so a
 * name can never be read as an option by git.
 */
export function isValidRefName(value: string): boolean {
  // Length first: a 90 KB name is refused without scanning it.
  if (!value || value.length > MAX_REF_NAME_BYTES || utf8Length(value) > MAX_REF_NAME_BYTES) return false;
  if (value.startsWith('-') || value.startsWith('/') || value.endsWith('/') || value.endsWith('.')) return false;
  if (value.endsWith('.lock') || value.includes('..') || value.includes('//') || value.includes('@{') || value === '@') return false;
  if (FORBIDDEN_CHARACTER.test(value)) return false;
  // Lone surrogates cannot be written as UTF-8: git would get U+FFFD instead.
  if (LONE_SURROGATE.test(value)) return false;
  return value.split('/').every((part) => part.length > 0 && !part.startsWith('.') && !part.endsWith('.lock'));
}

/** A full object id: 40 (SHA-1) or 64 (SHA-256) lower-case hex digits. */
export function isObjectId(value: string): boolean {
  return /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(value);
}

/**
 * Git's null object id, all zeros: what a ref update names as the old value of a ref it
 * creates and the new value of one it deletes.
 */
export function isZeroId(value: string): boolean {
  return /^0+$/.test(value);
}

/** A branch name usable as `refs/heads/<name>`. */
export function isValidBranchName(name: string): boolean {
  return isValidRefName(name) && !name.startsWith('refs/') && name !== 'HEAD';
}
