// A call that fails in transit rather than in the service: a service's HTTP/2 layer may end
// a whole connection (GOAWAY INTERNAL_ERROR, as nghttp2 does when a client cancelled too
// many calls at once: a gateway whose calls pass their deadline on an overloaded machine),
// and every call on it fails. grpc-js reports that as INTERNAL, but no handler failed: the
// caller is told `unavailable` (the gateway's 503, to retry), as for a passed deadline.
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServiceClient, DomainError, type ServiceClient } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';

let server: http2.Http2Server;
let client: ServiceClient<repository.TagServiceClient>;

beforeAll(async () => {
  // Not a gRPC server: an HTTP/2 endpoint that ends the connection of every call it gets.
  server = http2.createServer();
  server.on('stream', (stream) => stream.session?.goaway(http2.constants.NGHTTP2_INTERNAL_ERROR));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const TagService = loadAnvilGrpc().anvil.repository.v1.TagService;
  client = createServiceClient<repository.TagServiceClient>(TagService, `127.0.0.1:${(server.address() as AddressInfo).port}`, 'secret');
});

afterAll(async () => {
  client?.close();
  await new Promise((resolve) => server?.close(resolve));
});

const caller = { userId: 1, login: 'ada', isAdmin: false, restricted: false, scopes: ['all'] };

describe('a connection the service ends with an HTTP/2 error', () => {
  it('fails its calls as unavailable (a 503 to retry), not as an internal error', async () => {
    const err = await client.ListTags({ ref: { owner: 'ada', name: 'x' } } as never, { caller, deadlineMs: 5_000 }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ kind: 'unavailable' });
  });
});
