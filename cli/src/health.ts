// The gateway's aggregate health check (DESIGN.md §5): 200 {"status":"pass"} once every
// service answers its gRPC health check, 503 before. The supervisor and the e2e harness
// both poll it to know when the system is usable. node:http rather than fetch: fetch loads
// undici, about 10 MiB the supervisor would keep for the rest of its life.
import { request } from 'node:http';

export interface HealthAnswer {
  ok: boolean;
  /** HTTP status, or 0 when nothing answered. */
  status: number;
  body: string;
}

/** `baseUrl` is the gateway's root, e.g. `http://127.0.0.1:3000/`. */
export function fetchHealth(baseUrl: string, timeoutMs = 2_000): Promise<HealthAnswer> {
  return new Promise((resolve) => {
    const req = request(new URL('api/healthz', baseUrl), { timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ ok: res.statusCode === 200, status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (err) => resolve({ ok: false, status: 0, body: err.message }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (err) => resolve({ ok: false, status: 0, body: err.message }));
    req.end();
  });
}
