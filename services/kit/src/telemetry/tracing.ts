// Traces with the OpenTelemetry SDK. A trace starts at the gateway (one span per HTTP
// request) and follows every gRPC call: the kit's client wrapper injects the W3C
// `traceparent` into the call's metadata and its server wrapper continues it (grpc.ts).
//
// Context is propagated by hand in those two wrappers rather than by the grpc/http/express
// auto-instrumentations: the processes are ES modules, and those instrumentations only
// hook ESM through a loader registered with `node --import` before anything loads
// (import-in-the-middle), which every launcher (supervisor, Dockerfile, tests) would have
// to pass and which wraps every module loaded. The wrappers are the only places calls
// cross a process boundary, so two small hooks there see every call.
//
// Spans are exported over OTLP/HTTP only when OTEL_EXPORTER_OTLP_ENDPOINT is set. When it
// is not, no tracer provider is registered: the API hands out non-recording spans, nothing
// is injected, and the cost is a few property reads per call. The SDK itself (provider,
// exporter, propagator) is imported only then: loaded, it holds about 11 MiB per process,
// 55 MiB over `pnpm start`'s five (`pnpm bench`, footprint part).
import { context, propagation, trace, type Span, type Tracer } from '@opentelemetry/api';

export interface Tracing {
  enabled: boolean;
  /** Sends the spans still buffered (shutdown). */
  shutdown(): Promise<void>;
}

let started: Promise<Tracing> | undefined;

/** Starts tracing for this process, named `service` in every span it exports. Idempotent. */
export function startTracing(service: string, env: NodeJS.ProcessEnv = process.env): Promise<Tracing> {
  started ??= start(service, env);
  return started;
}

async function start(service: string, env: NodeJS.ProcessEnv): Promise<Tracing> {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return { enabled: false, shutdown: async () => {} };
  const [{ AsyncLocalStorageContextManager }, { W3CTraceContextPropagator }, { OTLPTraceExporter }, { resourceFromAttributes }, { BatchSpanProcessor, TracerProvider }] =
    await Promise.all([
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/core'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/sdk-trace'),
    ]);
  const url = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || `${endpoint.replace(/\/$/, '')}/v1/traces`;
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || `anvil-${service}` }),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url }), scheduledDelayMillis: 500 })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return { enabled: true, shutdown: () => provider.shutdown() };
}

export function tracer(): Tracer {
  return trace.getTracer('anvil');
}

/** The trace id of the span this code runs in, for log lines; undefined outside a recorded trace. */
export function currentTraceId(): string | undefined {
  const span = trace.getActiveSpan();
  if (!span) return undefined;
  const { traceId, traceFlags } = span.spanContext();
  return traceFlags & 1 ? traceId : undefined;
}

/** Ends `span` with the outcome of `work`, marking it failed when `work` throws. */
export async function endWith<T>(span: Span, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    span.recordException(err as Error);
    span.setStatus({ code: 2 });
    throw err;
  } finally {
    span.end();
  }
}
