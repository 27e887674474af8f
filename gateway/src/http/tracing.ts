// Where a trace starts: one server span per HTTP request, continuing the client's W3C
// `traceparent` when it sent one. Everything the request does runs in the span's context,
// so the kit's gRPC client carries the trace to the services. A no-op (non-recording span)
// unless OTEL_EXPORTER_OTLP_ENDPOINT is set (kit telemetry/tracing.ts).
import type { RequestHandler } from 'express';
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { tracer } from '@anvil/kit';

export function traceRequests(): RequestHandler {
  return (req, res, next) => {
    const parent = propagation.extract(context.active(), req.headers);
    const span = tracer().startSpan(`${req.method}`, { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method } }, parent);
    if (!span.isRecording()) {
      next();
      return;
    }
    const active = trace.setSpan(parent, span);
    // The access log names the request by its `traceparent`: make it this span's.
    propagation.inject(active, req.headers);
    res.once('close', () => {
      const route = (req.route as { path?: string } | undefined)?.path;
      if (route) span.updateName(`${req.method} ${req.baseUrl}${route}`);
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: 2 });
      span.end();
    });
    context.with(active, next);
  };
}
