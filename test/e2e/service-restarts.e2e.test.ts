// A service killed with kill -9 and started again (as `anvil start`'s supervisor does):
// meanwhile the gateway answers 503 for that service's routes and serves the others, and
// once it is back the gateway reaches it again without a restart of its own.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { bootE2e, type E2e, type Writer } from '../support/e2e.js';

jest.setTimeout(120_000);

let e2e: E2e;
let writer: Writer;

beforeAll(async () => {
  e2e = await bootE2e({ prefix: 'restart-user' });
  writer = await e2e.newWriter();
  expect((await writer.client.post('/user/repos', { name: 'kept', auto_init: true })).status).toBe(201);
}, 180_000);

afterAll(() => e2e?.close());

/** Asks until `path` answers `status`, for at most 10 s (the gateway reconnects within ~2 s). */
async function eventually(path: string, status: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    // Only the status matters here, and the 503s meanwhile are not in the document: unchecked.
    const answer = await writer.client.as({ token: writer.token }).undeclared('GET', path);
    if (answer.status === status) return;
    if (Date.now() > deadline) throw new Error(`GET ${path} still answers ${answer.status}, expected ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a service killed and restarted', () => {
  it('answers 503 for its routes meanwhile, serves the others, and answers them again as soon as /api/healthz passes, without restarting the gateway', async () => {
    const branches = `/repos/${writer.username}/kept/branches`;
    expect((await writer.client.get(branches)).status).toBe(200);

    await e2e.system.kill('repository');
    // A URL not asked before: one the gateway remembers is answered from its answer cache,
    // which is the point of it while the service is away.
    const down = await writer.client.undeclared('GET', `${branches}?limit=7`);
    expect(down.status).toBe(503);
    expect(down.message).toBe('service temporarily unavailable, try again later');
    // Raw files come over the side channel, not gRPC: the same answer.
    expect((await writer.client.undeclared('GET', `/repos/${writer.username}/kept/raw/README.md`)).status).toBe(503);
    // Identity's routes do not depend on it.
    expect((await writer.client.get(`/users/${writer.username}`)).status).toBe(200);
    expect((await fetch(`${e2e.system.baseUrl}api/healthz`)).status).toBe(503);

    // start() waits for /api/healthz, which passes only once the gateway's channel that
    // failed meanwhile has reconnected: the next call answers, as a readiness probe promises.
    await e2e.system.start('repository');
    expect((await writer.client.get(`${branches}?limit=7`)).status).toBe(200);
    // The side channel is reconnected on its own, like the gRPC channel.
    await eventually(`/repos/${writer.username}/kept/raw/README.md`, 200);
    // Only the killed service died; the gateway kept its process throughout.
    expect(e2e.system.crashes.map((exit) => [exit.name, exit.signal])).toEqual([['repository', 'SIGKILL']]);
  });
});
