// Access token scopes, normalized exactly as Gitea's AccessTokenScope.Normalize does
// (models/auth/access_token_scope.go): duplicates and implied scopes are dropped (write
// implies read), parents come first, and every write scope together reads as `all`.

const CATEGORIES = ['activitypub', 'admin', 'misc', 'notification', 'organization', 'package', 'issue', 'repository', 'user'] as const;

/** Every scope a token may name, in Gitea's order (a parent precedes its child). */
const ORDERED_SCOPES: readonly string[] = ['public-only', ...CATEGORIES.flatMap((c) => [`write:${c}`, `read:${c}`])];

// One bit per scope; a write scope's bits include its read scope's bit.
const BITS = new Map<string, bigint>();
{
  let bit = 0n;
  BITS.set('public-only', 1n << bit++);
  for (const category of CATEGORIES) {
    const read = 1n << bit++;
    const write = (1n << bit++) | read;
    BITS.set(`read:${category}`, read);
    BITS.set(`write:${category}`, write);
  }
}
const ALL_BITS = CATEGORIES.reduce((bits, c) => bits | BITS.get(`write:${c}`)!, 0n);
BITS.set('all', ALL_BITS);

const ALL_WRITE = CATEGORIES.map((c) => `write:${c}`).join(',');

export class InvalidScopeError extends Error {
  constructor(readonly scope: string) {
    // Gitea's text, which the API wraps as "invalid access token scope provided: ...".
    super(`invalid access token scope: ${scope}`);
  }
}

/**
 * The normalized scope list of the given names, as stored and shown. Each entry may itself
 * be comma-separated (Gitea joins the list with commas before parsing); empty entries are
 * ignored. Throws InvalidScopeError for an unknown name; returns [] when nothing was named.
 */
export function normalizeScopes(names: readonly string[]): string[] {
  let bitmap = 0n;
  for (const name of names.join(',').split(',')) {
    if (name === '') continue;
    const bits = BITS.get(name);
    if (bits === undefined) throw new InvalidScopeError(name);
    bitmap |= bits;
  }
  const scopes: string[] = [];
  let rebuilt = 0n;
  for (const scope of ORDERED_SCOPES) {
    const bits = BITS.get(scope)!;
    if ((bitmap & bits) !== bits) continue;
    if ((rebuilt | bits) === rebuilt) continue; // implied by a scope already listed
    rebuilt |= bits;
    scopes.push(scope);
  }
  const joined = scopes.join(',').replace(ALL_WRITE, 'all');
  return joined === '' ? [] : joined.split(',');
}

