// The hooks service must be registered so the health check answers SERVING for it by name.
import { describe, it, expect } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { checkHealth, createLogger, startGrpcServer } from '@anvil/kit';
import { hooksGrpcService, HOOKS_SERVICE_NAME } from '../src/grpc/hooks-service.js';
import type { WebhookStore } from '../src/domain/webhooks.js';

process.env.ANVIL_LOG_LEVEL ??= 'silent';

const unused = new Proxy({}, { get: () => () => Promise.reject(new Error('not used')) }) as WebhookStore;

describe('hooks gRPC service', () => {
  it('answers SERVING for anvil.hooks.v1.HooksService on the health check', async () => {
    const server = await startGrpcServer({
      listen: '127.0.0.1:0',
      secret: randomBytes(32).toString('hex'),
      log: createLogger('hooks-test'),
      services: [hooksGrpcService({ webhooks: unused, tests: { enqueueTest: () => Promise.resolve() }, deliveries: unused as never })],
    });
    try {
      const address = `127.0.0.1:${server.port}`;
      expect(await checkHealth(address)).toBe(true);
      expect(await checkHealth(address, HOOKS_SERVICE_NAME)).toBe(true);
    } finally {
      await server.shutdown(1_000);
    }
  });
});
