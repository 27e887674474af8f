// The collaboration service registers its gRPC services, so the health check answers
// SERVING for each by name.
import { describe, it, expect } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { checkHealth, createLogger, startGrpcServer } from '@anvil/kit';
import { issueGrpcService, ISSUE_SERVICE_NAME } from '../src/grpc/issue-service.js';
import type { IssueStore } from '../src/domain/issue-store.js';
import type { PinStore } from '../src/domain/issue-pins.js';
import type { DependencyStore } from '../src/domain/issue-dependencies.js';

process.env.ANVIL_LOG_LEVEL ??= 'silent';

describe('collaboration gRPC service', () => {
  it('answers SERVING for anvil.collaboration.v1.IssueService on the health check', async () => {
    const server = await startGrpcServer({
      listen: '127.0.0.1:0',
      secret: randomBytes(32).toString('hex'),
      log: createLogger('collaboration-test'),
      services: [issueGrpcService({ issues: {} as IssueStore, pins: {} as PinStore, dependencies: {} as DependencyStore })],
    });
    try {
      const address = `127.0.0.1:${server.port}`;
      expect(await checkHealth(address)).toBe(true);
      expect(await checkHealth(address, ISSUE_SERVICE_NAME)).toBe(true);
    } finally {
      await server.shutdown(1_000);
    }
  });
});
