// The address a repository is migrated or mirrored from (Gitea's forms.ParseRemoteAddr):
// an http, https or git URL, or — for site admins, with [security] IMPORT_LOCAL_PATHS — a
// directory under the configured local root. Credentials from the URL or the request's
// auth fields are kept apart from the address that is shown and stored, and every secret
// is listed so log lines and error messages can be scrubbed of it.
import { isAbsolute, relative, resolve } from 'node:path';
import { invalid } from '@anvil/kit';

export interface RemoteCredentials {
  username: string;
  password: string;
}

export type RemoteAddress =
  | {
    kind: 'url';
    protocol: 'http' | 'https' | 'git';
    /** Host name as written (IPv6 without brackets), lower-cased. */
    host: string;
    port: number;
    /** The URL without credentials: what is stored (`original_url`) and shown. */
    safeUrl: string;
    credentials?: RemoteCredentials;
    /** Strings that must never reach a log line or a reply. */
    secrets: string[];
  }
  | { kind: 'local'; path: string; safeUrl: string; secrets: string[] };

export interface LocalImportPolicy {
  /** [security] IMPORT_LOCAL_PATHS. */
  importLocalPaths: boolean;
  /** [migrations] ALLOWED_LOCAL_ROOT; empty refuses every local path. */
  allowedLocalRoot: string;
}

const DEFAULT_PORTS = { http: 80, https: 443, git: 9418 } as const;

/** Parses `cloneAddr`; 422 (invalid) for what cannot be migrated, naming no secret. */
export function parseRemoteAddress(
  cloneAddr: string, auth: { username?: string; password?: string; token?: string }, caller: { isAdmin: boolean }, policy: LocalImportPolicy,
): RemoteAddress {
  const addr = cloneAddr.trim();
  if (!addr) throw invalid('clone_addr is required', 'invalid_clone_addr');
  if (addr.startsWith('/')) return localAddress(addr, caller, policy);
  let url: URL;
  try {
    url = new URL(addr);
  } catch {
    throw invalid('The clone address is not a valid URL.', 'invalid_clone_addr');
  }
  const protocol = url.protocol.replace(/:$/, '');
  if (protocol !== 'http' && protocol !== 'https' && protocol !== 'git') {
    throw invalid(`The clone address protocol "${protocol}" is not supported: use http, https or git.`, 'invalid_clone_protocol');
  }
  if (!url.hostname) throw invalid('The clone address has no host.', 'invalid_clone_addr');
  // Credentials: the request's fields win over those written in the URL (as Gitea's).
  let username = decodeURIComponent(url.username);
  let password = decodeURIComponent(url.password);
  if (auth.username || auth.password) {
    username = auth.username ?? '';
    password = auth.password ?? '';
  }
  if (auth.token) {
    username = username || 'oauth2';
    password = auth.token;
  }
  url.username = '';
  url.password = '';
  const credentials = username || password ? { username, password } : undefined;
  if (credentials && protocol === 'git') throw invalid('The git protocol carries no credentials: use http or https.', 'invalid_clone_addr');
  const secrets = [password, encodeURIComponent(password), auth.token ?? '', auth.password ?? ''].filter((s) => s.length >= 1);
  return {
    kind: 'url', protocol, host: url.hostname.replace(/^\[|\]$/g, '').toLowerCase(),
    port: url.port ? Number(url.port) : DEFAULT_PORTS[protocol], safeUrl: url.toString(), credentials, secrets: [...new Set(secrets)],
  };
}

function localAddress(path: string, caller: { isAdmin: boolean }, policy: LocalImportPolicy): RemoteAddress {
  // Gitea: "You are not allowed to import local repositories." for anyone but admins (with the setting on).
  if (!caller.isAdmin || !policy.importLocalPaths || !policy.allowedLocalRoot) {
    throw invalid('You are not allowed to import local repositories.', 'local_import_denied');
  }
  const root = resolve(policy.allowedLocalRoot);
  const target = resolve(path);
  const rel = relative(root, target);
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) {
    throw invalid('You are not allowed to import local repositories outside the allowed import root.', 'local_import_denied');
  }
  return { kind: 'local', path: target, safeUrl: target, secrets: [] };
}

/** `text` with every secret and any `user:password@` in a URL replaced. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s@'"]*@/gi, '$1');
  for (const secret of secrets) if (secret) out = out.split(secret).join('<credentials>');
  return out;
}

// Go's time.ParseDuration units that make sense for mirror intervals.
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A Go duration ("8h", "1h30m", "10m0s") in milliseconds; undefined when it is not one. */
export function parseGoDuration(text: string): number | undefined {
  const value = text.trim();
  if (value === '0') return 0;
  if (!/^(\d+(\.\d+)?(ms|h|m|s))+$/.test(value)) return undefined;
  let total = 0;
  for (const [, amount, , unit] of value.matchAll(/(\d+(\.\d+)?)(ms|h|m|s)/g)) total += Number(amount) * UNIT_MS[unit];
  return Math.round(total);
}

/** Milliseconds as Go prints a time.Duration: "8h0m0s", "10m0s", "0s". */
export function formatGoDuration(ms: number): string {
  if (ms <= 0) return '0s';
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  if (h) return `${h}h${m}m${s}s`;
  if (m) return `${m}m${s}s`;
  return `${s}s`;
}
