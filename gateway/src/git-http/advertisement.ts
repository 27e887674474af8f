// A fetch's ref advertisement (`info/refs?service=git-upload-pack`) remembered by the gateway
// in its answer cache (caches/answers.ts), as Gitaly keeps an info-refs cache: a clone or
// fetch that finds it costs no side-channel request, no SQL and no git. It is asked for only
// after the git route's guards let the caller read the repository, and what git advertises
// to a reader does not depend on who reads, so every reader shares one answer per repository
// and protocol. It goes with the repository's other answers: when a push through this
// gateway starts and ends (trackWrites) and when the repository-answers hint says its refs
// moved (a push through another gateway, an API write, a merge).
import { request as httpRequest } from 'node:http';
import { ANONYMOUS, DomainError } from '@anvil/kit';
import type { repository } from '@anvil/proto';
import type { Answer, AnswerSubject } from '../caches/answers.js';
import type { Deps } from '../http/route.js';
import { GIT_GRANT_HEADER } from './grant.js';

/**
 * An advertisement this long (a repository with tens of thousands of refs) is not kept, as
 * the answer cache keeps no answer over 1 MiB: the caller streams it through the proxy instead
 * of this gateway holding it whole.
 */
const MAX_KEPT_BYTES = 1 << 20;

/** Only these side-channel headers are part of the advertisement's answer. */
const KEPT_HEADERS = ['content-type', 'cache-control', 'expires', 'pragma'];

/**
 * The advertisement for `protocol` (the client's Git-Protocol header), remembered or fetched
 * from the side channel with `grant`; undefined when the cache is off (the caller proxies).
 */
export async function uploadPackAdvertisement(
  deps: Deps, access: repository.RepositoryAccess, protocol: string, grant: string,
): Promise<Answer | undefined> {
  if (!deps.answers?.enabled) return undefined;
  const repo = access.repository!;
  return deps.answers.get(advertisementSubject(repo, protocol), () => fetchAdvertisement(deps, repo, protocol, grant));
}

/** Where the advertisement is remembered: one answer per repository and protocol, whoever reads. */
export function advertisementSubject(repo: repository.Repository, protocol: string): AnswerSubject {
  return {
    operationId: 'git-upload-pack-advertisement', repositoryId: String(repo.id), owner: repo.owner_login, name: repo.name,
    permission: 'read', caller: ANONYMOUS, url: `protocol=${protocol}`,
  };
}

function fetchAdvertisement(deps: Deps, repo: repository.Repository, protocol: string, grant: string): Promise<Answer | undefined> {
  const path = `/${encodeURIComponent(repo.owner_login)}/${encodeURIComponent(repo.name)}/info/refs?service=git-upload-pack`;
  const headers: Record<string, string> = { [GIT_GRANT_HEADER]: grant };
  if (protocol) headers['git-protocol'] = protocol;
  return new Promise((resolve, reject) => {
    const upstream = httpRequest(`http://${deps.config.repositoryHttpAddress}${path}`, { method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        bytes += chunk.length;
        if (bytes <= MAX_KEPT_BYTES) return;
        // Settled here: what the destroyed request still reports settles nothing.
        upstream.destroy();
        resolve(undefined);
      });
      res.on('aborted', () => reject(new DomainError('unavailable', 'repository service cut the advertisement short')));
      res.on('end', () => {
        // Anything but a whole 200 under the bound is not kept: the caller proxies the request instead.
        if (res.statusCode !== 200) return resolve(undefined);
        const kept: Record<string, string> = {};
        for (const name of KEPT_HEADERS) {
          const value = res.headers[name];
          if (typeof value === 'string') kept[name] = value;
        }
        resolve({ status: 200, headers: kept, body: Buffer.concat(chunks) });
      });
    });
    upstream.on('error', (err) => reject(new DomainError('unavailable', `repository service unavailable: ${err.message}`)));
    upstream.end();
  });
}
