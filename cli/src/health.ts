// The gateway's aggregate health check (DESIGN.md §5): 200 {"status":"pass"} once every
// service answers its gRPC health check, 503 before. The supervisor and the e2e harness
// both poll it to know when the system is usable.

export interface HealthAnswer {
  ok: boolean;
  /** HTTP status, or 0 when nothing answered. */
  status: number;
  body: string;
}

/** `baseUrl` is the gateway's root, e.g. `http://127.0.0.1:3000/`. */
export async function fetchHealth(baseUrl: string, timeoutMs = 2_000): Promise<HealthAnswer> {
  try {
    const res = await fetch(new URL('api/healthz', baseUrl), { signal: AbortSignal.timeout(timeoutMs) });
    const body = await res.text();
    return { ok: res.status === 200, status: res.status, body };
  } catch (err) {
    return { ok: false, status: 0, body: (err as Error).message };
  }
}
