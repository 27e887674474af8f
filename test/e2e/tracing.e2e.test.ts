// Traces across processes: with OTEL_EXPORTER_OTLP_ENDPOINT set, an API request is one
// trace from the gateway's HTTP span through the gRPC calls it makes to the services, the
// outbox and NATS to the consumers of its events, exported over OTLP/HTTP (received here
// by a small in-process receiver).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { bootE2e, type E2e } from '../support/e2e.js';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.js';

jest.setTimeout(120_000);

let receiver: OtlpReceiver;
let e2e: E2e;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  e2e = await bootE2e({ prefix: 'tr-user', env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
}, 180_000);

afterAll(async () => {
  await e2e?.close();
  await receiver?.close();
});

describe('a traced API write', () => {
  it('yields spans from the gateway, the service it called and the consumer of its event, all in the caller\'s trace', async () => {
    const owner = await e2e.newWriter({ scopes: ['write:repository', 'write:user'] });
    const traceId = randomBytes(16).toString('hex');
    const traceparent = `00-${traceId}-${randomBytes(8).toString('hex')}-01`;
    const created = await owner.client.request('POST', '/user/repos', { body: { name: e2e.users.unique('traced-') }, headers: { traceparent } });
    expect(created.status).toBe(201);

    // Each process exports its spans in batches of its own, so wait for every span asserted
    // below, not just for one span of each process: the repository's publish span can be
    // exported before its server span is.
    const inTrace = (spans: typeof receiver.spans, service: string, named: (name: string) => boolean) =>
      spans.some((span) => span.traceId === traceId && span.service === service && named(span.name));
    await receiver.waitFor((spans) =>
      inTrace(spans, 'anvil-gateway', (name) => name === 'POST /api/v1/user/repos') &&
      inTrace(spans, 'anvil-gateway', (name) => name === 'CreateRepository') &&
      inTrace(spans, 'anvil-repository', (name) => name.endsWith('/CreateRepository')) &&
      inTrace(spans, 'anvil-repository', (name) => name === 'publish repository.repo.created') &&
      inTrace(spans, 'anvil-collaboration', (name) => name === 'consume collaboration-repository'));
    const trace = receiver.spans.filter((span) => span.traceId === traceId);
    const http = trace.find((span) => span.service === 'anvil-gateway' && span.name === 'POST /api/v1/user/repos')!;
    expect(http).toBeDefined();
    // The service's span is the child of the gateway's client span for the same RPC.
    const served = trace.filter((span) => span.service === 'anvil-repository' && span.name.endsWith('/CreateRepository'));
    expect(served).toHaveLength(1);
    const call = trace.find((span) => span.spanId === served[0].parentSpanId)!;
    expect(call).toMatchObject({ service: 'anvil-gateway', name: 'CreateRepository' });
    // The event went out in the trace it was written in, and was consumed in it.
    const consumer = trace.find((span) => span.name === 'consume collaboration-repository')!;
    const publish = trace.find((span) => span.spanId === consumer.parentSpanId)!;
    expect(publish).toMatchObject({ service: 'anvil-repository', name: 'publish repository.repo.created' });
  });

  it('starts a trace of its own for a request that sent no traceparent', async () => {
    const before = new Set(receiver.spans.map((span) => span.traceId));
    expect((await e2e.anonymous.get('/version')).status).toBe(200);
    await receiver.waitFor((spans) => spans.some((span) => span.service === 'anvil-gateway' && span.name === 'GET /api/v1/version' && !before.has(span.traceId)));
  });
});
