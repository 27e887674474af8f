// Repository's HTTP side channel for git smart HTTP (DESIGN.md §3): the gateway
// authenticates, resolves the caller's permission and streams requests here with a signed
// grant; this server runs `git upload-pack`/`git receive-pack --stateless-rpc` through the
// one git command builder and streams both ways, never buffering a pack.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { DomainError, type Logger } from '@anvil/kit';
import type { RepositoryDeps } from '../domain/repositories.js';
import type { RepositoryWriteLock } from '../domain/write-lock.js';
import { git, runGitBytes, spawnGit, type GitCommandBuilder } from '../git/command.js';
import { listRefs } from '../git/refs.js';
import type { RepositoryStorage } from '../git/storage.js';
import { ARCHIVE_PATH, serveArchive } from './archive.js';
import { answerWithGitOutput, requestBody } from './git-body.js';
import { authorize } from './grant.js';
import { PRE_RECEIVE_PATH, type PreReceiveHooks } from './pre-receive.js';
import { RAW_PATH, serveRaw } from './raw.js';
import { PULL_DIFF_PATH, servePullDiff } from './pull-diff.js';
import type { RefIndex } from '../git/ref-index.js';
import { clientGone, fail, killWithClient } from './reply.js';
import { recordPush } from './push-recorder.js';

export interface GitHttpOptions {
  address: string;
  secret: string;
  log: Logger;
  deps: RepositoryDeps;
  storage: RepositoryStorage;
  /** Branch protection on push: receive-pack runs its pre-receive hook, which asks this server. */
  preReceive?: PreReceiveHooks;
  /** Shared with the API's writers, so the ref snapshots around a push bracket that push only. */
  writeLock: RepositoryWriteLock;
  /** Refs from the database for raw reads (git/ref-index.ts). */
  refs?: RefIndex;
}

type GitService = 'git-upload-pack' | 'git-receive-pack';
// Packs sent (upload-pack) go out by answerWithGitOutput, git writing into the connection;
// advertisements and push results are small and go through pipeGit.
const SERVICES = new Set<string>(['git-upload-pack', 'git-receive-pack']);

function pktLine(text: string): string {
  return (text.length + 4).toString(16).padStart(4, '0') + text;
}

function serviceCommand(service: GitService, gitDir: string, advertise: boolean, protocol: string | undefined, hooks?: { hooksPath: string; env: Record<string, string> }): GitCommandBuilder {
  const command = git(service.slice(4), { hooksPath: hooks?.hooksPath }).flag('--stateless-rpc');
  for (const [name, value] of Object.entries(hooks?.env ?? {})) command.env(name, value);
  if (advertise) command.flag('--advertise-refs');
  // Git protocol v2 is negotiated through this variable, as git http-backend does.
  if (protocol && /^version=\d$/.test(protocol)) command.env('GIT_PROTOCOL', protocol);
  return command.afterEndOfOptions(gitDir);
}

export function startGitHttpServer(options: GitHttpOptions): Promise<void> {
  const { log, storage, deps, secret } = options;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://repository');
    if (url.pathname === PRE_RECEIVE_PATH && options.preReceive) return options.preReceive.handle(req, res);
    const archive = req.method === 'GET' ? ARCHIVE_PATH.exec(url.pathname) : null;
    if (archive) return serveArchive(req, res, archive, { secret, storage, log });
    const pullDiff = req.method === 'GET' ? PULL_DIFF_PATH.exec(url.pathname) : null;
    if (pullDiff) return servePullDiff(req, res, pullDiff, { secret, storage, log });
    if (req.method === 'GET' && RAW_PATH.test(url.pathname)) return serveRaw(req, res, RAW_PATH.exec(url.pathname)!, url, { secret, storage, log, refs: options.refs });
    const match = /^\/([^/]+)\/([^/]+)\/(info\/refs|git-upload-pack|git-receive-pack)$/.exec(url.pathname);
    const gone = clientGone(res);
    if (!match) return fail(res, 404, 'not found');
    const [, owner, name, action] = match;
    const service = (action === 'info/refs' ? url.searchParams.get('service') : action) ?? '';
    if (!SERVICES.has(service)) return fail(res, 403, 'unsupported service');
    const grant = authorize(req, res, { owner, name }, service === 'git-receive-pack' ? 'write' : 'read', secret);
    if (!grant) return;
    const gitDir = storage.pathOf(grant.owner, grant.name);
    const protocol = typeof req.headers['git-protocol'] === 'string' ? req.headers['git-protocol'] : undefined;

    if (action === 'info/refs') {
      res.writeHead(200, {
        'content-type': `application/x-${service}-advertisement`,
        'cache-control': 'no-cache, max-age=0, must-revalidate',
        expires: 'Fri, 01 Jan 1980 00:00:00 GMT',
        pragma: 'no-cache',
      });
      if (protocol !== 'version=2' || service === 'git-receive-pack') res.write(`${pktLine(`# service=${service}\n`)}0000`);
      // Gitaly's info-refs cache: a fetch's advertisement is what the refs say, so it is kept
      // under the version of the refs table, which every write turn that moves a ref changes.
      const version = service === 'git-upload-pack' ? await options.refs?.version(gitDir) : undefined;
      if (version) {
        const command = serviceCommand(service as GitService, gitDir, true, protocol).build();
        res.end(await storage.computed.get(gitDir, `info-refs:${protocol && /^version=\d$/.test(protocol) ? protocol : ''}:${version}`, () => runGitBytes(command)));
        return;
      }
      await pipeGit(serviceCommand(service as GitService, gitDir, true, protocol), req, res, { withBody: false });
      return;
    }
    if (service === 'git-receive-pack') {
      await options.writeLock.run(grant.owner, grant.name, async () => {
        const before = await listRefs(gitDir);
        const hook = options.preReceive?.begin({
          repositoryId: grant.repositoryId, gitDir,
          pusher: { id: grant.caller.userId, login: grant.caller.login, permission: grant.permission },
        });
        const hooks = hook && { hooksPath: options.preReceive!.hooksDir, env: hook.env };
        const ok = await pipeGit(serviceCommand('git-receive-pack', gitDir, false, protocol, hooks), req, res, { withBody: true, resultOf: 'git-receive-pack', endResponse: false })
          .finally(() => hook?.end());
        if (!ok) return;
        const after = await listRefs(gitDir);
        // The response stays open until the push is recorded, so when `git push` returns
        // the API already shows it (as Gitea's post-receive runs inside the push).
        await recordPush({
          deps, log, gitDir, repositoryId: grant.repositoryId,
          pusher: { id: grant.caller.userId, login: grant.caller.login },
          sizeOf: () => storage.sizeOf(grant.owner, grant.name),
        }, before, after).catch((err: unknown) => log.error({ err, repository: grant.repositoryId }, 'recording a push failed'));
        // A pusher that left while waiting for its turn is skipped: its git would wait
        // for a body that never comes.
      }, gone);
      // Ended after the turn, whose end wrote the refs table: when `git push` returns, the
      // next read of any replica sees the push.
      res.end();
      return;
    }
    await answerWithGitOutput(serviceCommand('git-upload-pack', gitDir, false, protocol).build(), req, res, 'application/x-git-upload-pack-result', log);
  }

  /**
   * Streams the request body into git (withBody) and git's stdout into the response;
   * resolves true when git exits 0. `resultOf` sets the result content type; with
   * `endResponse: false` the caller ends the response (after recording a push).
   */
  function pipeGit(
    command: GitCommandBuilder, req: IncomingMessage, res: ServerResponse,
    options: { withBody: boolean; resultOf?: GitService; endResponse?: boolean },
  ): Promise<boolean> {
    const { withBody, resultOf, endResponse = true } = options;
    return new Promise((resolve) => {
      if (res.destroyed) return resolve(false); // the client left: nobody reads git's answer
      const built = command.build();
      const child = spawnGit(built);
      const stderr: Buffer[] = [];
      child.stderr!.on('data', (b: Buffer) => stderr.push(b));
      if (withBody) {
        if (!res.headersSent && resultOf) {
          res.writeHead(200, { 'content-type': `application/x-${resultOf}-result`, 'cache-control': 'no-cache' });
        }
        const body = requestBody(req);
        body.on('error', () => child.kill('SIGKILL'));
        body.pipe(child.stdin!);
      } else {
        child.stdin!.end();
      }
      child.stdin!.on('error', () => {});
      child.stdout!.pipe(res, { end: endResponse });
      // A client that goes away must not leave git running.
      killWithClient(child, res);
      child.on('error', (err) => {
        log.error({ err }, 'git failed to start');
        fail(res, 500, 'git failed');
        resolve(false);
      });
      // 'close' fires after stdout has ended and been written through.
      child.on('close', (code) => {
        if (code !== 0) log.warn({ code, args: built.args, stderr: Buffer.concat(stderr).toString().slice(0, 2000) }, 'git exited with an error');
        resolve(code === 0);
      });
    });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      // The repository went away while the request ran (git/command.ts RepositoryGone).
      if (err instanceof DomainError && err.kind === 'not_found') return fail(res, 404, err.message);
      // A pusher that left before its write turn came: nobody is left to answer.
      if (err instanceof DomainError && err.reason === 'abandoned') return void res.destroy();
      log.error({ err }, 'git http request failed');
      fail(res, 500, 'internal error');
    });
  });
  const [host, port] = splitAddress(options.address);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const bound = server.address();
      options.preReceive?.listenOn(host, typeof bound === 'object' && bound ? bound.port : port);
      log.info({ address: options.address }, 'git HTTP listening');
      resolve();
    });
  });
}

function splitAddress(address: string): [string, number] {
  const colon = address.lastIndexOf(':');
  return [address.slice(0, colon).replace(/^\[|\]$/g, ''), Number(address.slice(colon + 1))];
}

