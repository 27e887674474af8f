// The gateway's git smart-HTTP front door, with fake services: what it answers before it
// streams anything to the repository service, and the grant it signs when it does.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from '@jest/globals';
import express from 'express';
import { createLogger, DomainError, loadConfig, verifyPayload } from '@anvil/kit';
import { CredentialCache } from '../src/auth/credential-cache.js';
import { RepositoryAccessCache } from '../src/caches/repository-access.js';
import { GIT_GRANT_HEADER } from '../src/git-http/grant.js';
import { gitHttp } from '../src/git-http/proxy.js';
import type { Deps } from '../src/http/route.js';

process.env.ANVIL_LOG_LEVEL ??= 'silent';
const SECRET = 'x'.repeat(40);
const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

const USER = { id: 7, login: 'ada', is_admin: false, restricted: false } as any;
const REPO = { id: 3, owner_login: 'ada', name: 'demo', archived: false } as any;

async function gateway(options: { env?: Record<string, string>; permission?: string; visible?: boolean; upstream?: string } = {}) {
  const upstream = options.upstream ?? '127.0.0.1:9';
  const config = loadConfig({ ANVIL__security__INTERNAL_TOKEN: SECRET, ANVIL_REPOSITORY_HTTP_ADDR: upstream, ...options.env });
  const calls: string[] = [];
  const services = {
    identity: {
      async Authenticate(req: any) {
        calls.push('Authenticate');
        if (req.basic?.password !== 'right') throw new DomainError('unauthenticated', 'wrong password');
        return { user: USER, scopes: [], method: 'password', token_hash: '' };
      },
    },
    repository: {
      async ResolveRepository() {
        calls.push('ResolveRepository');
        if (options.visible === false) throw new DomainError('not_found', 'nope');
        return { repository: REPO, permission: options.permission ?? 'read' };
      },
    },
  } as unknown as Deps['services'];
  const deps = { config, services, credentials: new CredentialCache(), repositories: new RepositoryAccessCache(), log: createLogger('test') } as Deps;
  const app = express();
  app.set('query parser', 'simple');
  app.use(gitHttp(deps));
  app.use((_req, res) => { res.status(404).end(); });
  return { base: `http://${await listen(app)}`, calls };
}

const basic = (password: string) => ({ authorization: `Basic ${Buffer.from(`ada:${password}`).toString('base64')}` });

describe('git smart HTTP in the gateway', () => {
  it('is refused with 403 when [repository] DISABLE_HTTP_GIT is set', async () => {
    const { base, calls } = await gateway({ env: { ANVIL__repository__DISABLE_HTTP_GIT: 'true' } });
    const res = await fetch(`${base}/ada/demo.git/info/refs?service=git-upload-pack`);
    expect(res.status).toBe(403);
    expect(calls).toEqual([]);
  });

  it('asks anonymous pushers for credentials with WWW-Authenticate, before looking at the repository', async () => {
    const { base, calls } = await gateway();
    const res = await fetch(`${base}/ada/demo.git/info/refs?service=git-receive-pack`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="Gitea"');
    expect(calls).toEqual([]);
  });

  it('answers a wrong password with 401 and a hidden repository with 401 (anonymous) or 404 (signed in)', async () => {
    const hidden = await gateway({ visible: false });
    expect((await fetch(`${hidden.base}/ada/demo/info/refs?service=git-upload-pack`, { headers: basic('wrong') })).status).toBe(401);
    expect((await fetch(`${hidden.base}/ada/demo/info/refs?service=git-upload-pack`)).status).toBe(401);
    expect((await fetch(`${hidden.base}/ada/demo/info/refs?service=git-upload-pack`, { headers: basic('right') })).status).toBe(404);
  });

  it('refuses a push with read permission only', async () => {
    const { base } = await gateway({ permission: 'read' });
    const res = await fetch(`${base}/ada/demo.git/git-receive-pack`, { method: 'POST', headers: basic('right'), body: '0000' });
    expect(res.status).toBe(403);
  });

  it('streams to the repository service with a signed grant and without the caller\'s credentials', async () => {
    let seen: { url?: string; grant?: string; authorization?: string } = {};
    const upstream = await listen((req, res) => {
      seen = { url: req.url, grant: req.headers[GIT_GRANT_HEADER] as string, authorization: req.headers.authorization };
      res.writeHead(200, { 'content-type': 'application/x-git-upload-pack-advertisement' }).end('ok');
    });
    const { base } = await gateway({ permission: 'write', upstream });
    const res = await fetch(`${base}/ADA/demo.git/info/refs?service=git-upload-pack`, { headers: basic('right') });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok');
    expect(seen.url).toBe('/ada/demo/info/refs?service=git-upload-pack');
    expect(seen.authorization).toBeUndefined();
    expect(verifyPayload(seen.grant!, SECRET)).toMatchObject({ caller: { userId: 7, login: 'ada' }, repositoryId: 3, permission: 'write' });
    expect(verifyPayload(seen.grant!, 'another-secret-another-secret-another')).toBeUndefined();
  });
});
