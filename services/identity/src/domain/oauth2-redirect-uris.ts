// Redirect URIs of OAuth2 applications: what may be registered, and whether a redirect_uri
// presented at /login/oauth/authorize is one of them.
import { invalid } from '@anvil/kit';

// Schemes that would run code or read local data in the user's browser instead of reaching
// the client.
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:']);

/**
 * Throws `invalid` unless `uri` is an absolute URL a client can receive a code at: http(s)
 * with a host (Gitea's ValidUrlList), or a native app's private-use scheme in reverse-domain
 * form such as `com.example.app:/callback` (RFC 8252 §7.1). No fragment (RFC 6749 §3.1.2),
 * no credentials in the URL.
 */
export function validateRedirectUri(uri: string): void {
  const bad = (why: string) => invalid(`[redirect_uris]: invalid redirect URI ${JSON.stringify(uri)}: ${why}`, 'invalid_redirect_uri');
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw bad('not an absolute URL');
  }
  if (uri.trim() !== uri || uri === '') throw bad('not an absolute URL');
  if (url.hash !== '' || uri.includes('#')) throw bad('must not have a fragment');
  if (url.username !== '' || url.password !== '') throw bad('must not carry credentials');
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    if (url.hostname === '') throw bad('needs a host');
    return;
  }
  if (FORBIDDEN_SCHEMES.has(url.protocol)) throw bad(`scheme ${url.protocol} is not allowed`);
  if (!/^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/.test(url.protocol)) throw bad('a custom scheme must be a reverse domain name');
}

/** The registered list as stored: validated, at least one, duplicates dropped in order. */
export function normalizeRedirectUris(uris: readonly string[]): string[] {
  if (uris.length === 0) throw invalid('[redirect_uris]: Required', 'invalid_redirect_uri');
  for (const uri of uris) validateRedirectUri(uri);
  return [...new Set(uris)];
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]']);

/**
 * The registered URI `presented` matches, or undefined. Matching is exact string equality,
 * except that a public (native) client's loopback redirect may use any port, since the app
 * picks a free one at run time (RFC 8252 §7.3; Gitea does the same).
 */
export function matchRedirectUri(registered: readonly string[], presented: string, confidential: boolean): string | undefined {
  if (registered.includes(presented)) return presented;
  if (confidential) return undefined;
  let asked: URL;
  try {
    asked = new URL(presented);
  } catch {
    return undefined;
  }
  if (asked.protocol !== 'http:' || !LOOPBACK_HOSTS.has(asked.hostname)) return undefined;
  return registered.find((uri) => {
    const candidate = new URL(uri);
    return candidate.protocol === 'http:' && candidate.hostname === asked.hostname
      && candidate.pathname === asked.pathname && candidate.search === asked.search;
  });
}
