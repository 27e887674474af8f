// Bulk bytes (archives, raw files) come from the repository service's HTTP side channel,
// never through gRPC (DESIGN.md §3). The route resolves the repository first (one gRPC call,
// 404 for a repository the caller cannot see), then asks the side channel with a short-lived
// grant signed with the internal token, and streams the answer to the caller.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { DomainError } from '@anvil/kit';
import type { repository } from '@anvil/proto';
import { GIT_GRANT_HEADER, signGrant } from '../git-http/grant.js';
import type { RouteContext } from '../http/route.js';

/** The side channel's grant for what `access` allows the caller (the service checks it again). */
export function repositoryGrant(ctx: RouteContext, access: repository.RepositoryAccess): string {
  return signGrant(ctx.deps.config.settings.security.INTERNAL_TOKEN ?? '', ctx.caller, access);
}

/** `/{owner}/{name}/{rest}` on the side channel, each part encoded. */
export function sideChannelPath(access: repository.RepositoryAccess, rest: string): string {
  const repo = access.repository!;
  return `/${encodeURIComponent(repo.owner_login)}/${encodeURIComponent(repo.name)}/${rest}`;
}

export interface StreamOptions {
  grant: string;
  /** Statuses passed on to the caller; any other is `onRefused`'s to turn into an error. */
  passStatuses: readonly number[];
  /** Response headers copied from the side channel. */
  passHeaders: readonly string[];
  /** Request headers forwarded to the side channel (conditional requests). */
  forwardHeaders?: readonly string[];
  /** The error for a status not passed on (a 404 becomes the route's own not-found). */
  onRefused(status: number): Error;
  /**
   * A 200 whose declared length is at most this many bytes is read whole and returned as the
   * route's reply instead of streamed, so the answer cache (caches/answers.ts) may keep it.
   */
  bufferUpTo?: number;
}

function fetchUpstream(ctx: RouteContext, path: string, headers: Record<string, string>): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const upstream = httpRequest(`http://${ctx.deps.config.repositoryHttpAddress}${path}`, { method: 'GET', headers }, resolve);
    // Refused or reset: the repository service is down or restarting, a 503 like its gRPC routes.
    upstream.on('error', (err) => reject(new DomainError('unavailable', `repository service unavailable: ${err.message}`)));
    // A caller who goes away stops the git process upstream too.
    ctx.res.on('close', () => upstream.destroy());
    upstream.end();
  });
}

function pick(from: Record<string, string | string[] | undefined>, names: readonly string[]): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const value = from[name];
    if (typeof value === 'string') picked[name] = value;
  }
  return picked;
}

/** Streams the side channel's answer for `path` to the caller; the route's result for the router. */
export async function streamFromRepository(ctx: RouteContext, path: string, options: StreamOptions) {
  const headers = { ...pick(ctx.req.headers, options.forwardHeaders ?? []), [GIT_GRANT_HEADER]: options.grant };
  const upstream = await fetchUpstream(ctx, path, headers);
  const status = upstream.statusCode ?? 502;
  if (!options.passStatuses.includes(status)) {
    upstream.resume();
    throw options.onRefused(status);
  }
  const passed = pick(upstream.headers, options.passHeaders);
  const length = Number(upstream.headers['content-length'] ?? NaN);
  if (status === 200 && options.bufferUpTo !== undefined && length <= options.bufferUpTo) {
    const body = await readWhole(upstream);
    const { 'content-type': contentType = 'application/octet-stream', 'content-length': _length, ...rest } = passed;
    for (const [name, value] of Object.entries(rest)) ctx.res.setHeader(name, value);
    return { status, body, contentType };
  }
  ctx.res.writeHead(status, passed);
  // A broken git process cuts the stream, so the client sees a failed download, not a short file.
  upstream.on('error', () => ctx.res.destroy());
  upstream.on('aborted', () => ctx.res.destroy());
  upstream.pipe(ctx.res);
  return { status, streamed: true as const };
}

/** The whole body of a short answer; a cut stream is the unavailable upstream it is. */
function readWhole(upstream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    upstream.on('data', (chunk: Buffer) => chunks.push(chunk));
    upstream.on('end', () => resolve(Buffer.concat(chunks)));
    upstream.on('aborted', () => reject(new DomainError('unavailable', 'repository service cut the answer short')));
    upstream.on('error', (err) => reject(new DomainError('unavailable', `repository service unavailable: ${err.message}`)));
  });
}
