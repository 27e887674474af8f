// GET /api/healthz: 200 {"status":"pass"} once every service answers its gRPC health
// check, 503 otherwise (DESIGN.md §5). Kubernetes' readiness probe points here.
import type { Request, Response } from 'express';
import { SERVICE_NAMES, checkHealth, type Config } from '@anvil/kit';
import { sendJson } from './route.js';

export function healthz(config: Config) {
  return async (_req: Request, res: Response): Promise<void> => {
    const results = await Promise.all(SERVICE_NAMES.map((name) => checkHealth(config.addresses[name])));
    const failing = SERVICE_NAMES.filter((_, i) => !results[i]);
    if (failing.length === 0) return sendJson(res, 200, { status: 'pass' });
    sendJson(res, 503, { status: 'fail', failing });
  };
}
