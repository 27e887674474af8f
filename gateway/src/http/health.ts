// GET /api/healthz: 200 {"status":"pass"} once every service answers its gRPC health
// check and this gateway's own channels reach it, 503 otherwise (DESIGN.md §5).
// Kubernetes' readiness probe points here. A restarted service answers a fresh health check
// at once, but a channel of this gateway that failed to reach it meanwhile waits out its
// reconnect backoff (up to 2 s), failing every call with 503: until it reconnected, the
// service counts as failing here too, so traffic comes back when its routes answer.
import type { Request, Response } from 'express';
import { SERVICE_NAMES, checkHealth, type Config } from '@anvil/kit';
import type { ServiceClients } from '../services.js';
import { sendJson } from './route.js';

export function healthz(config: Config, services: Pick<ServiceClients, 'reconnecting'>) {
  return async (_req: Request, res: Response): Promise<void> => {
    const results = await Promise.all(SERVICE_NAMES.map((name) => checkHealth(config.addresses[name])));
    const reconnecting = new Set(services.reconnecting());
    const failing = SERVICE_NAMES.filter((name, i) => !results[i] || reconnecting.has(name));
    if (failing.length === 0) return sendJson(res, 200, { status: 'pass' });
    sendJson(res, 503, { status: 'fail', failing });
  };
}
