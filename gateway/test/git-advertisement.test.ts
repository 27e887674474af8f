// A fetch's ref advertisement kept by the gateway (git-http/advertisement.ts), against a
// stand-in side channel: a usual one is fetched once and then answered from the gateway; one
// too large to keep is left to the proxy, never held whole.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { repository } from '@anvil/proto';
import { AnswerCache } from '../src/caches/answers.js';
import { uploadPackAdvertisement } from '../src/git-http/advertisement.js';
import type { Deps } from '../src/http/route.js';

/** Bytes the stand-in side channel answers per repository name; requests counted. */
const sizes = new Map<string, number>();
let asked = 0;
let server: Server;
let address: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    asked++;
    const name = decodeURIComponent((req.url ?? '').split('/')[2] ?? '');
    res.writeHead(200, { 'content-type': 'application/x-git-upload-pack-advertisement', 'cache-control': 'no-cache' });
    // Written in pieces, as git's output arrives.
    const total = sizes.get(name) ?? 0;
    for (let sent = 0; sent < total; sent += 64 << 10) res.write(Buffer.alloc(Math.min(64 << 10, total - sent), 'a'));
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

const deps = () => ({ config: { repositoryHttpAddress: address }, answers: new AnswerCache(10_000) }) as unknown as Deps;
const access = (id: number, name: string) => ({ repository: { id, owner_login: 'ada', name }, permission: 'read' }) as unknown as repository.RepositoryAccess;

describe('the ref advertisement the gateway keeps', () => {
  it('is fetched once and then answered by the gateway, with its content type', async () => {
    sizes.set('small', 2_000);
    const d = deps();
    const before = asked;
    const first = await uploadPackAdvertisement(d, access(1, 'small'), '', 'grant');
    const second = await uploadPackAdvertisement(d, access(1, 'small'), '', 'grant');
    expect(first).toMatchObject({ status: 200, headers: { 'content-type': 'application/x-git-upload-pack-advertisement' } });
    expect(second?.body.length).toBe(2_000);
    expect(asked - before).toBe(1);
  });

  it('is left to the proxy when larger than the gateway keeps', async () => {
    sizes.set('huge', 3 << 20);
    const d = deps();
    const before = asked;
    expect(await uploadPackAdvertisement(d, access(2, 'huge'), '', 'grant')).toBeUndefined();
    expect(await uploadPackAdvertisement(d, access(2, 'huge'), '', 'grant')).toBeUndefined();
    expect(asked - before).toBe(2);
  });
});
