// The Prometheus metrics every process records, on http://<ANVIL_METRICS_ADDR>/metrics
// (metrics.ts serves them). Created on first use in prom-client's default registry, so a
// process only shows what it does: the gateway its HTTP requests and client RPCs, a service
// its served RPCs, its consumers and its outbox; the repository service its git processes,
// the hooks service its webhook deliveries. Recording is a counter increment and a
// histogram observation; nothing is computed until Prometheus scrapes.
import { Counter, Gauge, Histogram, register } from 'prom-client';

// Seconds; from a cached read (~1 ms) to a slow write or a large git operation.
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

function metric<M>(name: string, create: () => M): M {
  return (register.getSingleMetric(name) as M | undefined) ?? create();
}

const httpRequests = () => metric('anvil_http_requests_total', () => new Counter({
  name: 'anvil_http_requests_total', help: 'HTTP requests answered by the gateway, by route template and status', labelNames: ['method', 'route', 'status'],
}));
const httpSeconds = () => metric('anvil_http_request_duration_seconds', () => new Histogram({
  name: 'anvil_http_request_duration_seconds', help: 'Time to answer an HTTP request, by route template', labelNames: ['method', 'route'], buckets: LATENCY_BUCKETS,
}));

/** One answered HTTP request; `route` is the route's template (never the raw path). */
export function recordHttpRequest(method: string, route: string, status: number, seconds: number): void {
  httpRequests().inc({ method, route, status: String(status) });
  httpSeconds().observe({ method, route }, seconds);
}

const rpcServed = () => metric('anvil_grpc_server_handled_total', () => new Counter({
  name: 'anvil_grpc_server_handled_total', help: 'gRPC calls this process served, by method and status code', labelNames: ['method', 'code'],
}));
const rpcServedSeconds = () => metric('anvil_grpc_server_handling_seconds', () => new Histogram({
  name: 'anvil_grpc_server_handling_seconds', help: 'Time to serve a gRPC call, by method', labelNames: ['method'], buckets: LATENCY_BUCKETS,
}));
const rpcCalled = () => metric('anvil_grpc_client_handled_total', () => new Counter({
  name: 'anvil_grpc_client_handled_total', help: 'gRPC calls this process made, by method and status code', labelNames: ['method', 'code'],
}));
const rpcCalledSeconds = () => metric('anvil_grpc_client_handling_seconds', () => new Histogram({
  name: 'anvil_grpc_client_handling_seconds', help: 'Time a gRPC call this process made took, by method', labelNames: ['method'], buckets: LATENCY_BUCKETS,
}));

/** One served call; `code` is the gRPC status code (0 = OK). */
export function recordRpcServed(method: string, code: number, seconds: number): void {
  rpcServed().inc({ method, code: String(code) });
  rpcServedSeconds().observe({ method }, seconds);
}

export function recordRpcCalled(method: string, code: number, seconds: number): void {
  rpcCalled().inc({ method, code: String(code) });
  rpcCalledSeconds().observe({ method }, seconds);
}

const consumed = () => metric('anvil_events_consumed_total', () => new Counter({
  name: 'anvil_events_consumed_total', help: 'Events a durable consumer took: handled, duplicate (already handled) or failed (redelivered later)', labelNames: ['consumer', 'outcome'],
}));
const redelivered = () => metric('anvil_events_redelivered_total', () => new Counter({
  name: 'anvil_events_redelivered_total', help: 'Events delivered to a consumer more than once (a failed handler, a replica that died before acknowledging)', labelNames: ['consumer'],
}));
const lag = () => metric('anvil_consumer_pending_events', () => new Gauge({
  name: 'anvil_consumer_pending_events', help: 'Events in the stream a durable consumer has not yet been delivered, as of its last delivery (consumer lag)', labelNames: ['consumer'],
}));

export function recordConsumed(consumer: string, outcome: 'handled' | 'duplicate' | 'failed' | 'skipped', delivery: { redelivered: boolean; pending: number }): void {
  consumed().inc({ consumer, outcome });
  if (delivery.redelivered) redelivered().inc({ consumer });
  lag().set({ consumer }, delivery.pending);
}

const gitRuns = () => metric('anvil_git_processes_total', () => new Counter({
  name: 'anvil_git_processes_total', help: 'git processes started, by subcommand and exit (0, a code, or signal)', labelNames: ['subcommand', 'exit'],
}));
const gitSeconds = () => metric('anvil_git_process_duration_seconds', () => new Histogram({
  name: 'anvil_git_process_duration_seconds', help: 'How long git processes ran, by subcommand', labelNames: ['subcommand'], buckets: LATENCY_BUCKETS,
}));
const gitRunning = () => metric('anvil_git_processes_running', () => new Gauge({
  name: 'anvil_git_processes_running', help: 'git processes running now', labelNames: ['subcommand'],
}));

/** Counts a git process from start to exit; call the returned function when it has exited. */
export function trackGitProcess(subcommand: string): (exit: number | string | null) => void {
  const started = process.hrtime.bigint();
  gitRunning().inc({ subcommand });
  let ended = false;
  return (exit) => {
    if (ended) return;
    ended = true;
    gitRunning().dec({ subcommand });
    gitRuns().inc({ subcommand, exit: String(exit ?? 'none') });
    gitSeconds().observe({ subcommand }, Number(process.hrtime.bigint() - started) / 1e9);
  };
}

const deliveries = () => metric('anvil_webhook_deliveries_total', () => new Counter({
  name: 'anvil_webhook_deliveries_total', help: 'Webhook delivery attempts by outcome: delivered, pending (to be retried) or failed (given up)', labelNames: ['outcome'],
}));

export function recordWebhookDelivery(outcome: 'delivered' | 'pending' | 'failed'): void {
  deliveries().inc({ outcome });
}
