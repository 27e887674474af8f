// Reads the credential a request presents, in Gitea's accepted forms: `Authorization:
// token T`, `Authorization: Bearer T`, HTTP Basic (password or token), and the deprecated
// `?token=` / `?access_token=` query parameters.
import type { Request } from 'express';

export type Credential =
  | { kind: 'token'; token: string }
  | { kind: 'basic'; username: string; password: string };

export class MalformedCredential extends Error {}

export function readCredential(req: Request): Credential | undefined {
  const header = req.headers.authorization;
  if (header) return readAuthorization(header);
  const query = req.query as Record<string, unknown>;
  const token = query.token ?? query.access_token;
  if (typeof token === 'string' && token) return { kind: 'token', token };
  return undefined;
}

/** Gitea's `sudo` query parameter or `Sudo` header: an admin acting as another user. */
export function readSudo(req: Request): string | undefined {
  const fromQuery = (req.query as Record<string, unknown>).sudo;
  const value = typeof fromQuery === 'string' && fromQuery ? fromQuery : req.headers.sudo;
  return typeof value === 'string' && value ? value : undefined;
}

/** The credential an `Authorization` header carries; throws MalformedCredential when it is not one. */
export function readAuthorization(header: string): Credential {
  const space = header.indexOf(' ');
  const scheme = (space < 0 ? header : header.slice(0, space)).toLowerCase();
  const value = space < 0 ? '' : header.slice(space + 1).trim();
  if ((scheme === 'token' || scheme === 'bearer') && value) return { kind: 'token', token: value };
  if (scheme === 'basic' && value) {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new MalformedCredential('invalid basic authentication');
    return { kind: 'basic', username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  throw new MalformedCredential('invalid authorization header');
}
