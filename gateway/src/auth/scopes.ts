// Gitea's access token scopes (models/auth/access_token_scope.go): `<level>:<category>`,
// where write implies read, `all` grants everything and `public-only` narrows a token to
// public resources. A route names the categories it belongs to; the HTTP method picks the
// level (GET/HEAD read, anything else write), exactly as Gitea's tokenRequiresScopes does.
export const SCOPE_CATEGORIES = [
  'activitypub', 'admin', 'misc', 'notification', 'organization', 'package', 'issue', 'repository', 'user',
] as const;
export type ScopeCategory = (typeof SCOPE_CATEGORIES)[number];

export type ScopeLevel = 'read' | 'write';

export function levelOfMethod(method: string): ScopeLevel {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? 'read' : 'write';
}

/** The scopes a request needs: one per category at the method's level. */
export function requiredScopes(level: ScopeLevel, categories: readonly ScopeCategory[]): string[] {
  return categories.map((category) => `${level}:${category}`);
}

/** True when the token's scopes grant every required one. */
export function grantsScopes(tokenScopes: readonly string[], required: readonly string[]): boolean {
  if (tokenScopes.includes('all')) return true;
  return required.every((scope) => {
    const [level, category] = scope.split(':');
    return tokenScopes.includes(scope) || (level === 'read' && tokenScopes.includes(`write:${category}`));
  });
}

export function isPublicOnly(tokenScopes: readonly string[]): boolean {
  return tokenScopes.includes('public-only');
}
