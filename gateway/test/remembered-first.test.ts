// The gateway's listener (http/remembered-first.ts): a GET whose answer shortcut holds is
// sent without the express app, with what express would have added (the headers set before
// the route, the access log line); anything else reaches the app untouched.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Logger } from '@anvil/kit';
import type { Answer } from '../src/caches/answers.js';
import { rememberedFirst } from '../src/http/remembered-first.js';
import { rememberedRead } from './support/remembered-read.js';

const TOKEN = 'c'.repeat(40);
const PATH = '/api/v1/repos/ada/site/branches';
const branches: Answer = { status: 200, headers: { 'content-type': 'application/json;charset=utf-8', 'x-total-count': '1' }, body: Buffer.from('[{"name":"main"}]') };

const lines: Array<Record<string, unknown>> = [];
const log = { info: (fields: Record<string, unknown>) => void lines.push(fields), isLevelEnabled: () => true } as unknown as Logger;
const appSaw: string[] = [];
const app = (req: IncomingMessage, res: ServerResponse) => {
  appSaw.push(`${req.method} ${req.url}`);
  res.writeHead(418, { 'content-type': 'text/plain' }).end('from the app');
};

let base = '';
const server = createServer();
let served: Awaited<ReturnType<typeof rememberedRead>>;
/** Requests the server has received. */
let arrived = 0;

/** Resolves once the server has received one more request than `before`. */
async function arrivedAfter(before: number): Promise<void> {
  while (arrived <= before) await new Promise((resolve) => setImmediate(resolve));
}

beforeAll(async () => {
  served = await rememberedRead({
    token: TOKEN, user: { id: 3, login: 'ada' }, owner: 'ada', name: 'site', repositoryId: 9, permission: 'owner', url: PATH, answer: branches,
  });
  server.on('request', () => void arrived++);
  server.on('request', rememberedFirst(app, served.shortcuts, log));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((done) => server.close(() => done())));

describe('the listener in front of express', () => {
  it('sends a remembered answer itself, with the headers set before the route and one access log line', async () => {
    const res = await fetch(`${base}${PATH}`, { headers: { authorization: `token ${TOKEN}`, 'x-request-id': 'req-7' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('[{"name":"main"}]');
    expect(res.headers.get('x-total-count')).toBe('1');
    expect(res.headers.get('access-control-expose-headers')).toBe('Link, X-Total-Count');
    expect(res.headers.get('content-length')).toBe(String(branches.body.length));
    expect(appSaw).toEqual([]);
    expect(lines.at(-1)).toMatchObject({ method: 'GET', path: PATH, status: 200, user: 'ada', trace: 'req-7' });
  });

  it('waits for an answer being computed again after a write and sends it; hands the read to the app when it gives nothing', async () => {
    const { answers, subject } = served;
    const newer: Answer = { ...branches, body: Buffer.from('[{"name":"main"},{"name":"next"}]') };
    answers.dropRepositories(['9']);
    let finish!: (answer: Answer | undefined) => void;
    const computing = answers.get(subject, () => new Promise<Answer | undefined>((resolve) => (finish = resolve)));
    let before = arrived;
    const waiting = fetch(`${base}${PATH}`, { headers: { authorization: `token ${TOKEN}` } });
    // The request is in, waiting: the computation ends.
    await arrivedAfter(before);
    finish(newer);
    await computing;
    const res = await waiting;
    expect(await res.text()).toBe('[{"name":"main"},{"name":"next"}]');
    expect(res.headers.get('access-control-expose-headers')).toBe('Link, X-Total-Count');

    // A computation that gave nothing to keep (an error reply): the route table answers.
    answers.dropRepositories(['9']);
    const failing = answers.get(subject, () => new Promise<Answer | undefined>((resolve) => (finish = resolve)));
    before = arrived;
    const handed = fetch(`${base}${PATH}`, { headers: { authorization: `token ${TOKEN}` } });
    await arrivedAfter(before);
    const sawBefore = appSaw.length;
    finish(undefined);
    await failing;
    expect((await handed).status).toBe(418);
    expect(appSaw.slice(sawBefore)).toEqual([`GET ${PATH}`]);
    appSaw.length = sawBefore;
    // The answer is remembered again for what follows.
    await answers.get(subject, async () => branches);
  });

  it('hands everything else to the app: another credential, no credential, another method', async () => {
    await (await fetch(`${base}${PATH}`, { headers: { authorization: `token ${'d'.repeat(40)}` } })).text();
    await (await fetch(`${base}${PATH}`)).text();
    await (await fetch(`${base}${PATH}`, { method: 'POST', headers: { authorization: `token ${TOKEN}` }, body: '{}' })).text();
    expect(appSaw).toEqual([`GET ${PATH}`, `GET ${PATH}`, `POST ${PATH}`]);
  });
});
