// A gRPC handler learns when its caller stopped waiting: the client's deadline passes, the
// client gets `unavailable` (the gateway's 503), and the handler's signal is aborted so work
// it has not started yet can be skipped. Real grpc-js client and server on loopback.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger, DomainError, type ServiceClient } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import { MAX_STATUS_DETAILS } from '../../src/grpc/server.js';
import { testGrpcServer, type TestGrpcServer } from '../../../../test/support/int-testbed.js';

/** A failure the service recognizes though no DomainError was thrown (git: no such repository). */
class RepositoryGone extends Error {}

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
      // What Prisma throws when PostgreSQL has no connection left.
      async DeleteTag() {
        throw Object.assign(new Error('Too many database connections opened: sorry, too many clients already'), { code: 'P2037' });
      },
      // What Prisma throws when every pooled connection stayed busy past the transaction's maxWait.
      async CreateTag() {
        throw Object.assign(new Error('Transaction API error: Unable to start a transaction in the given time.'), { code: 'P2028' });
      },
      // Quotes its input in the error, as domain errors do (`tag doesn't exist: <name>`).
      async GetTag(request: { name: string }) {
        throw new DomainError('not_found', `tag doesn't exist: ${request.name}`, 'tag_not_found');
      },
      async GetAnnotatedTag() {
        throw new RepositoryGone('fatal: not a git repository');
      },
    },
  }], createLogger('kit-grpc-test', { level: 'silent' }), {
    domainErrorOf: (err) => (err instanceof RepositoryGone ? new DomainError('not_found', 'The target couldn\'t be found.', 'repo_not_found') : undefined),
  });
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

describe('an error that quotes a huge input', () => {
  it('reaches the caller at once, its message cut short, and other calls keep working', async () => {
    const huge = 'b'.repeat(90_000);
    const err = await client.GetTag({ ref: { owner: 'ada', name: 'x' }, name: huge }, { caller, deadlineMs: 5_000 }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect({ kind: (err as DomainError).kind, reason: (err as DomainError).reason }).toEqual({ kind: 'not_found', reason: 'tag_not_found' });
    expect([...(err as DomainError).message].length).toBeLessThanOrEqual(MAX_STATUS_DETAILS);
    const emoji = await client.GetTag({ ref: { owner: 'ada', name: 'x' }, name: '😀'.repeat(30_000) }, { caller, deadlineMs: 5_000 }).then(() => undefined, (e: unknown) => e);
    expect((emoji as DomainError).kind).toBe('not_found');
    const small = await client.GetTag({ ref: { owner: 'ada', name: 'x' }, name: 'v1' }, { caller, deadlineMs: 5_000 }).then(() => undefined, (e: unknown) => e);
    expect((small as DomainError).message).toBe("tag doesn't exist: v1");
  });
});

describe('a failure the service names', () => {
  it('reaches the caller as the error the service names it, not as an internal error', async () => {
    const err = await client.GetAnnotatedTag({ ref: { owner: 'ada', name: 'x' }, sha: 'a'.repeat(40) } as never, { caller, deadlineMs: 5_000 }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ kind: 'not_found', message: 'The target couldn\'t be found.', reason: 'repo_not_found' });
  });
});

describe('a database out of connections', () => {
  it('is unavailable for the caller (a 503 to retry), not an internal error', async () => {
    const err = await client.DeleteTag({ ref: { owner: 'ada', name: 'x' }, name: 'v1' }, { caller, deadlineMs: 5_000 }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).kind).toBe('unavailable');
  });

  it('is unavailable too when the pool stayed busy past the wait for a transaction', async () => {
    const err = await client.CreateTag({ ref: { owner: 'ada', name: 'x' }, tag_name: 'v1' } as never, { caller, deadlineMs: 5_000 }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).kind).toBe('unavailable');
  });
});
