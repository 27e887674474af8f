// Replicas of a service share its calls: a client given every address balances per call
// (round_robin), and a replica shut down gracefully finishes what it holds while the
// client moves on to the others, without a failed request. Real grpc-js on loopback.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger, createServiceClient, type RunningGrpcServer, type ServiceClient } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import { channelTarget, isIdempotent, listenAddress, serviceConfigFor } from '../../src/grpc/balancing.js';
import { startGrpcServer } from '../../src/grpc/server.js';

const log = createLogger('kit-balancing-test', { level: 'silent' });
const secret = randomBytes(32).toString('hex');
const caller = { userId: 1, login: 'ada', isAdmin: false, restricted: false, scopes: ['all'] };
const TagService = loadAnvilGrpc().anvil.repository.v1.TagService;

interface Replica {
  server: RunningGrpcServer;
  reads: number;
  writes: number;
}

async function startReplica(): Promise<Replica> {
  const replica = { reads: 0, writes: 0 } as Replica;
  // Each call takes a few milliseconds, so a burst keeps calls in flight on every replica.
  const work = () => new Promise((resolve) => setTimeout(resolve, 5));
  replica.server = await startGrpcServer({
    listen: '127.0.0.1:0',
    secret,
    log,
    services: [{
      name: 'anvil.repository.v1.TagService',
      definition: TagService.service,
      implementation: {
        async ListTags() {
          replica.reads += 1;
          await work();
          return { tags: [], total: 0 };
        },
        async CreateTag(request: { name: string }) {
          replica.writes += 1;
          await work();
          return { name: request.name };
        },
      },
    }],
  });
  return replica;
}

let first: Replica;
let second: Replica;
let client: ServiceClient<repository.TagServiceClient>;

beforeAll(async () => {
  [first, second] = await Promise.all([startReplica(), startReplica()]);
  client = createServiceClient<repository.TagServiceClient>(TagService, `127.0.0.1:${first.server.port},127.0.0.1:${second.server.port}`, secret);
});

afterAll(async () => {
  client?.close();
  await Promise.all([first?.server.shutdown(1_000), second?.server.shutdown(1_000)]);
});

describe('an address list', () => {
  it('becomes a grpc-js target that resolves to every address', () => {
    expect(channelTarget('127.0.0.1:50051')).toBe('127.0.0.1:50051');
    expect(channelTarget('127.0.0.1:50051, 127.0.0.1:50151')).toBe('ipv4:127.0.0.1:50051,127.0.0.1:50151');
    expect(channelTarget('[::1]:50051,[::1]:50151')).toBe('ipv6:[::1]:50051,[::1]:50151');
    expect(channelTarget('dns:///identity-headless:50051')).toBe('dns:///identity-headless:50051');
  });

  it('is listened on at its first entry when no listen address is given', () => {
    expect(listenAddress('127.0.0.1:50051,127.0.0.1:50151')).toBe('127.0.0.1:50051');
    expect(listenAddress('dns:///identity-headless:50051')).toBe('identity-headless:50051');
  });
});

describe('which calls are repeated on another replica', () => {
  it('repeats reads and never writes', () => {
    expect(['GetTag', 'ListTags', 'SearchRepositories', 'CheckHealth', 'Get'].map(isIdempotent)).toEqual([true, true, true, true, true]);
    expect(['CreateTag', 'DeleteTag', 'Getaway', 'EditIssue', 'Listen'].map(isIdempotent)).toEqual([false, false, false, false, false]);
    const config = serviceConfigFor(TagService.service) as { methodConfig: Array<{ name: Array<{ method: string }> }> };
    const retried = config.methodConfig.flatMap((entry) => entry.name.map((name) => name.method));
    expect(retried).toEqual(expect.arrayContaining(['ListTags', 'GetTag', 'GetAnnotatedTag']));
    expect(retried).not.toContain('CreateTag');
  });
});

describe('two replicas of a service', () => {
  it('share the calls of one client, taking turns', async () => {
    // The channel is ready once one replica is connected; calls reach the other as soon as
    // its connection is up too.
    while (first.reads === 0 || second.reads === 0) await client.ListTags({ ref: { owner: 'ada', name: 'x' } }, { caller });
    const before = [first.reads, second.reads];
    await Promise.all(Array.from({ length: 40 }, () => client.ListTags({ ref: { owner: 'ada', name: 'x' } }, { caller })));
    expect([first.reads - before[0], second.reads - before[1]]).toEqual([20, 20]);
  });

  it('lose no call, read or write, when one shuts down gracefully in the middle of a burst', async () => {
    const outcomes: Array<Promise<unknown>> = [];
    let shutdown: Promise<void> | undefined;
    let startedBeforeShutdown = 0;
    for (let i = 0; i < 300; i++) {
      const ref = { owner: 'ada', name: 'x' };
      outcomes.push(i % 2 ? client.ListTags({ ref }, { caller }) : client.CreateTag({ ref, name: `v${i}` } as never, { caller }));
      if (i === 100) {
        startedBeforeShutdown = first.reads + first.writes;
        shutdown = first.server.shutdown(10_000);
      }
      // Let the calls interleave with the shutdown instead of all leaving in one tick.
      if (i % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    const results = await Promise.allSettled(outcomes);
    await shutdown;
    const failures = results.filter((result) => result.status === 'rejected').map((result) => String((result as PromiseRejectedResult).reason));
    expect(failures).toEqual([]);
    // The replica had taken calls when it was told to stop, and answered them all.
    expect(startedBeforeShutdown).toBeGreaterThan(0);
    const afterShutdown = [first.reads + first.writes, second.reads + second.writes];
    await Promise.all(Array.from({ length: 20 }, () => client.ListTags({ ref: { owner: 'ada', name: 'x' } }, { caller })));
    expect(first.reads + first.writes).toBe(afterShutdown[0]);
    expect(second.reads + second.writes).toBe(afterShutdown[1] + 20);
  });
});

describe('a service address in the configuration', () => {
  it('may list replicas or name a headless Service, and is refused when it is neither', async () => {
    const { loadConfig, ConfigError } = await import('../../src/config/index.js');
    const env = { ANVIL_IDENTITY_ADDR: '127.0.0.1:50051,127.0.0.1:50151', ANVIL_HOOKS_ADDR: 'dns:///hooks-headless:50054' };
    expect(loadConfig(env).addresses).toMatchObject({ identity: env.ANVIL_IDENTITY_ADDR, hooks: env.ANVIL_HOOKS_ADDR });
    expect(() => loadConfig({ ANVIL_IDENTITY_ADDR: '127.0.0.1:50051,,' })).toThrow(ConfigError);
    expect(() => loadConfig({ ANVIL_IDENTITY_ADDR: 'dns:///identity' })).toThrow(ConfigError);
  });
});

describe('the metrics of calls', () => {
  it('count served and made calls by method and status code', async () => {
    const { register } = await import('prom-client');
    const values = async (name: string) => (await register.getSingleMetric(name)!.get()).values;
    const served = await values('anvil_grpc_server_handled_total');
    expect(served).toContainEqual(expect.objectContaining({ labels: { method: 'anvil.repository.v1.TagService/ListTags', code: '0' } }));
    const made = await values('anvil_grpc_client_handled_total');
    const listTags = made.find((value) => value.labels.method === 'ListTags' && value.labels.code === '0');
    expect(listTags?.value).toBeGreaterThan(0);
  });
});
