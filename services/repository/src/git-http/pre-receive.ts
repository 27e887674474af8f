// Branch protection on `git push`: receive-pack runs with core.hooksPath pointing at this
// service's hooks directory, whose pre-receive hook sends the ref updates (its stdin) back
// here over localhost HTTP, authenticated by a per-process secret and naming the push by
// a random token. The service knows the pusher from the signed grant of that push, asks
// checkProtectedPush for each branch update and answers 200 or 403 with Gitea's message,
// which the hook prints (git shows it as `remote: ...`) before exiting non-zero so no ref moves.
// A push allowed to land first loses the ref locks a writer that died long ago left behind.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, resolve, sep } from 'node:path';
import type { Logger } from '@anvil/kit';
import { checkProtectedPush, type Pusher } from '../domain/branch-protection.js';
import { pusherTeamNames } from '../domain/org-access.js';
import type { BranchProtectionStore } from '../domain/branch-protection-store.js';
import type { SignatureVerifier } from '../domain/commit-verification.js';
import type { RepositoryStore } from '../domain/store.js';
import { pushGitFacts } from '../git/branch-git.js';
import { removeStaleRefLocks } from '../git/stale-ref-lock.js';
import type { ObjectEnv } from '../git/branches.js';
import { runAsWriter } from '../domain/write-turn.js';

export const PRE_RECEIVE_PATH = '/internal/pre-receive';
const SECRET_HEADER = 'x-anvil-hook-secret';

/** What the service knows about a push in flight. */
export interface PushSession {
  repositoryId: number;
  gitDir: string;
  pusher: Pusher;
}

// CommonJS whatever package.json is nearby; only node's own modules.
const HOOK_SCRIPT = `'use strict';
const http = require('node:http');
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  const body = JSON.stringify({
    push: process.env.GIT_ANVIL_PUSH || '',
    updates: Buffer.concat(chunks).toString('utf8').split('\\n').filter(Boolean),
    objectDirectory: process.env.GIT_OBJECT_DIRECTORY || '',
    alternateObjectDirectories: process.env.GIT_ALTERNATE_OBJECT_DIRECTORIES || '',
  });
  const req = http.request(process.env.GIT_ANVIL_HOOK_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json', '${SECRET_HEADER}': process.env.GIT_ANVIL_HOOK_SECRET || '' },
  }, (res) => {
    const out = [];
    res.on('data', (c) => out.push(c));
    res.on('end', () => {
      if (res.statusCode === 200) process.exit(0);
      process.stderr.write(Buffer.concat(out).toString('utf8').trim() + '\\n');
      process.exit(1);
    });
  });
  req.on('error', (e) => {
    process.stderr.write('pre-receive check failed: ' + e.message + '\\n');
    process.exit(1);
  });
  req.end(body);
});
`;

/** One line of the hook's stdin: `<old-sha> <new-sha> <ref>`. */
interface RefUpdateLine {
  oldSha: string;
  newSha: string;
  ref: string;
}

function parseUpdates(lines: readonly string[]): RefUpdateLine[] {
  return lines.map((line) => {
    const [oldSha = '', newSha = '', ref = ''] = String(line).split(' ');
    return { oldSha, newSha, ref };
  });
}

export class PreReceiveHooks {
  private readonly secret = randomBytes(32).toString('hex');
  private readonly sessions = new Map<string, PushSession>();
  private url = '';

  constructor(
    readonly hooksDir: string,
    private readonly deps: { store: RepositoryStore; protections: BranchProtectionStore; signatures: SignatureVerifier; log: Logger },
  ) {}

  /** Writes the hook scripts (each start: the node path may change between releases). */
  async install(): Promise<void> {
    await mkdir(this.hooksDir, { recursive: true });
    const script = join(this.hooksDir, 'pre-receive.cjs');
    await writeFile(script, HOOK_SCRIPT);
    await writeFile(join(this.hooksDir, 'pre-receive'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(script)}\n`);
    await chmod(join(this.hooksDir, 'pre-receive'), 0o755);
  }

  /** Where the hook reaches this process (the git HTTP server's own port). */
  listenOn(host: string, port: number): void {
    const local = !host || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
    this.url = `http://${local}:${port}${PRE_RECEIVE_PATH}`;
  }

  /** Registers a push; the returned variables go into receive-pack's environment. */
  begin(session: PushSession): { env: Record<string, string>; end(): void } {
    const token = randomBytes(24).toString('hex');
    this.sessions.set(token, session);
    return {
      env: { GIT_ANVIL_HOOK_URL: this.url, GIT_ANVIL_HOOK_SECRET: this.secret, GIT_ANVIL_PUSH: token },
      end: () => this.sessions.delete(token),
    };
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const answer = (status: number, text: string): void => void res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
    const given = Buffer.from(String(req.headers[SECRET_HEADER] ?? ''));
    const expected = Buffer.from(this.secret);
    if (req.method !== 'POST' || given.length !== expected.length || !timingSafeEqual(given, expected)) return answer(403, 'forbidden');
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > 4 << 20) return answer(413, 'too many ref updates');
      chunks.push(chunk as Buffer);
    }
    let body: { push?: string; updates?: string[]; objectDirectory?: string; alternateObjectDirectories?: string };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return answer(400, 'bad request');
    }
    const session = this.sessions.get(body.push ?? '');
    if (!session) return answer(403, 'unknown push');
    const updates = parseUpdates(body.updates ?? []);
    let refusal: string | undefined;
    try {
      // The push holds its repository's write turn while git waits for this answer: the checks'
      // git work counts as the writer's, never queued behind reads (domain/write-turn.ts).
      refusal = await runAsWriter(`pre-receive:${session.gitDir}`, () => this.check(session, updates, this.objectEnv(session.gitDir, body)));
    } catch (err) {
      // Fail closed with a message git shows: e.g. identity, which verifies signatures, is down.
      this.deps.log.error({ err, repository: session.repositoryId }, 'pre-receive check failed');
      return answer(503, 'the push could not be checked against branch protection now; try again later');
    }
    if (refusal) {
      this.deps.log.info({ repository: session.repositoryId, pusher: session.pusher.login, refusal }, 'push refused by branch protection');
      return answer(403, refusal);
    }
    // The push may land, and receive-pack locks its refs next: a lock a writer that died
    // long ago left on one of them would refuse it, so it goes now (stale-ref-lock.ts).
    removeStaleRefLocks(session.gitDir, updates);
    answer(200, 'ok');
  }

  /** The quarantine directories, accepted only inside the repository being pushed to. */
  private objectEnv(gitDir: string, body: { objectDirectory?: string; alternateObjectDirectories?: string }): ObjectEnv {
    const inside = (path: string) => resolve(gitDir, path).startsWith(resolve(gitDir) + sep);
    const env: ObjectEnv = {};
    if (body.objectDirectory && inside(body.objectDirectory)) env.GIT_OBJECT_DIRECTORY = resolve(gitDir, body.objectDirectory);
    const alternates = (body.alternateObjectDirectories ?? '').split(':').filter(Boolean);
    if (alternates.length && alternates.every(inside)) env.GIT_ALTERNATE_OBJECT_DIRECTORIES = alternates.map((a) => resolve(gitDir, a)).join(':');
    return env;
  }

  /** The first refusal among the updates, or undefined when every one may land. */
  private async check(session: PushSession, updates: readonly RefUpdateLine[], env: ObjectEnv): Promise<string | undefined> {
    const found = await this.deps.store.findById(session.repositoryId);
    if (!found) return 'repository does not exist';
    // The gateway refuses pushes to archived repositories before they start; this is the
    // same rule where every ref update lands, as the branch and tag APIs apply it.
    if (found.repository.archived) return 'This repo is archived. You can view files and clone it, but cannot push or open issues or pull requests.';
    // A pull mirror's refs are its source's (Gitea's githttp refuses the push up front; the
    // gateway does too, and this holds wherever else a push may come from).
    if (found.repository.mirror) return 'mirror repository is read-only';
    if (found.repository.status === 'migrating') return 'repo is not ready, currently migrating';
    const branchUpdates = updates.filter(({ ref }) => ref.startsWith('refs/heads/'));
    if (branchUpdates.length === 0) return undefined;
    const rules = await this.deps.protections.list(session.repositoryId);
    const facts = pushGitFacts(session.gitDir, env, this.deps.signatures);
    const pusher = { ...session.pusher, teams: await pusherTeamNames(this.deps.store, found.owner, session.pusher.id) };
    for (const { oldSha, newSha, ref } of branchUpdates) {
      const decision = await checkProtectedPush({
        rules, defaultBranch: found.repository.default_branch, branch: ref.slice('refs/heads/'.length),
        pusher, oldSha, newSha,
      }, facts);
      if (!decision.allowed) return decision.message;
    }
    return undefined;
  }
}
