// A gRPC handler learns when its caller stopped waiting: the client's deadline passes, the
// client gets `unavailable` (the gateway's 503), and the handler's signal is aborted so work
// it has not started yet can be skipped. Real grpc-js client and server on loopback.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger, DomainError, type ServiceClient } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import { testGrpcServer, type TestGrpcServer } from '../../../../test/support/int-testbed.js';

let server: TestGrpcServer;
let client: ServiceClient<repository.TagServiceClient>;
let seen: (signal: AbortSignal) => void = () => {};
let release: () => void = () => {};

beforeAll(async () => {
  const TagService = loadAnvilGrpc().anvil.repository.v1.TagService;
  server = await testGrpcServer([{
    name: 'anvil.repository.v1.TagService',
    definition: TagService.service,
    implementation: {
      // Answers when the test says so, like a writer waiting for its turn.
      async ListTags(_request: unknown, { signal }: { signal: AbortSignal }) {
        seen(signal);
        await new Promise<void>((resolve) => (release = resolve));
        return { tags: [], total: 0 };
      },
    },
  }], createLogger('kit-grpc-test', { level: 'silent' }));
  client = server.client<repository.TagServiceClient>(TagService);
});

afterAll(() => server?.close());

const caller = { userId: 1, login: 'ada', isAdmin: false, restricted: false, scopes: ['all'] };

describe('a call whose caller stops waiting', () => {
  it('fails for the caller as unavailable and aborts the handler\'s signal', async () => {
    const signal = new Promise<AbortSignal>((resolve) => (seen = resolve));
    const call = client.ListTags({ ref: { owner: 'ada', name: 'x' } }, { caller, deadlineMs: 200 });
    const handlerSignal = await signal;
    expect(handlerSignal.aborted).toBe(false);
    const err = await call.then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).kind).toBe('unavailable');
    await new Promise<void>((resolve) => (handlerSignal.aborted ? resolve() : handlerSignal.addEventListener('abort', () => resolve())));
    expect(handlerSignal.aborted).toBe(true);
    release();
  });

  it('leaves the signal alone for a call answered in time', async () => {
    const signal = new Promise<AbortSignal>((resolve) => (seen = resolve));
    const call = client.ListTags({ ref: { owner: 'ada', name: 'x' } }, { caller, deadlineMs: 5_000 });
    const handlerSignal = await signal;
    release();
    expect(await call).toMatchObject({ total: 0 });
    expect(handlerSignal.aborted).toBe(false);
  });
});
