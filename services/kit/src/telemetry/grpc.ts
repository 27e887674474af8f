// Trace context across gRPC: the client wrapper injects the current context into the
// call's metadata (W3C `traceparent`), the server wrapper extracts it and runs the
// handler inside a server span that continues the caller's trace.
import type * as grpc from '@grpc/grpc-js';
import { context, propagation, SpanKind, trace, type Context, type Span } from '@opentelemetry/api';
import { tracer } from './tracing.js';

const metadataSetter = { set: (carrier: grpc.Metadata, key: string, value: string) => carrier.set(key, value) };
const metadataGetter = {
  get: (carrier: grpc.Metadata, key: string) => {
    const [value] = carrier.get(key);
    return typeof value === 'string' ? value : undefined;
  },
  keys: (carrier: grpc.Metadata) => Object.keys(carrier.getMap()),
};

/** Starts the client span of an outgoing call and writes its context into `metadata`. */
export function startClientSpan(method: string, metadata: grpc.Metadata): Span {
  const span = tracer().startSpan(method, { kind: SpanKind.CLIENT, attributes: { 'rpc.system': 'grpc', 'rpc.method': method } });
  if (span.isRecording()) propagation.inject(trace.setSpan(context.active(), span), metadata, metadataSetter);
  return span;
}

/** The server span of an incoming call, continuing the caller's trace, and its context. */
export function startServerSpan(method: string, metadata: grpc.Metadata): { span: Span; context: Context } {
  const parent = propagation.extract(context.active(), metadata, metadataGetter);
  const span = tracer().startSpan(method, { kind: SpanKind.SERVER, attributes: { 'rpc.system': 'grpc', 'rpc.method': method } }, parent);
  return { span, context: trace.setSpan(parent, span) };
}
