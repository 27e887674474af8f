// A small OTLP/HTTP trace receiver for tests: takes what the OpenTelemetry exporter posts
// to /v1/traces (JSON) and keeps every span with the service that sent it.
import { createServer, type Server } from 'node:http';

export interface ReceivedSpan {
  service: string;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  kind: number;
}

interface OtlpExport {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans?: Array<{ spans?: Array<{ name: string; traceId: string; spanId: string; parentSpanId?: string; kind: number }> }>;
  }>;
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  /** Resolves once `predicate` holds for the spans received (checked as each export arrives). */
  waitFor(predicate: (spans: ReceivedSpan[]) => boolean): Promise<void>;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const waiters: Array<{ predicate: (spans: ReceivedSpan[]) => boolean; resolve: () => void }> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/v1/traces' && String(req.headers['content-type']).includes('json')) {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
        for (const resourceSpans of body.resourceSpans ?? []) {
          const service = resourceSpans.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
          for (const scope of resourceSpans.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) spans.push({ service, name: span.name, traceId: span.traceId, spanId: span.spanId, parentSpanId: span.parentSpanId || undefined, kind: span.kind });
          }
        }
        for (const waiter of [...waiters]) {
          if (waiter.predicate(spans)) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve();
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    waitFor: (predicate) => (predicate(spans) ? Promise.resolve() : new Promise((resolve) => waiters.push({ predicate, resolve }))),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
