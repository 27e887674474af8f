// Trace context across the outbox and NATS. A change stores the traceparent of the request
// that made it with its event (outbox_event.trace_context); the relay publishes the event
// in a producer span continuing that trace, with the context in the message headers; a
// consumer handles the message in a consumer span continuing it again. So one API write is
// one trace from the gateway to every consumer of its events.
import { context, propagation, SpanKind, trace, type Span } from '@opentelemetry/api';
import type { MsgHdrs } from 'nats';
import { tracer } from './tracing.js';

type Carrier = Record<string, string>;

/** The traceparent of the active trace, for an outbox row; null outside a recorded trace. */
export function currentTraceContext(): string | null {
  if (!trace.getActiveSpan()?.isRecording()) return null;
  const carrier: Carrier = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** A producer span continuing `traceContext` (a stored traceparent), its context written into `headers`. */
export function startPublishSpan(subject: string, traceContext: string | null, headers: MsgHdrs): Span | undefined {
  if (!traceContext) return undefined;
  const parent = propagation.extract(context.active(), { traceparent: traceContext });
  const span = tracer().startSpan(`publish ${subject}`, { kind: SpanKind.PRODUCER, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject } }, parent);
  const carrier: Carrier = {};
  propagation.inject(trace.setSpan(parent, span), carrier);
  for (const [key, value] of Object.entries(carrier)) headers.set(key, value);
  return span;
}

/** Runs `work` in a consumer span continuing the trace in the message headers, if any. */
export async function inConsumerSpan<T>(durable: string, subject: string, headers: MsgHdrs | undefined, work: () => Promise<T>): Promise<T> {
  const traceparent = headers?.get('traceparent');
  if (!traceparent) return work();
  const parent = propagation.extract(context.active(), { traceparent });
  const span = tracer().startSpan(`consume ${durable}`, { kind: SpanKind.CONSUMER, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject, 'messaging.consumer.group.name': durable } }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), work);
  } catch (err) {
    span.setStatus({ code: 2 });
    throw err;
  } finally {
    span.end();
  }
}
