// Starts nats-server from PATH with JetStream in a temporary data dir, checks it answers
// the NATS protocol with JetStream enabled, and stops it.
import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findNatsServer, NatsServerNotFound, startNats } from '../src/infra/nats.js';
import { ProcessRunner } from '../src/processes.js';

/** The server's INFO banner, sent to every new connection. */
function info(port: number): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.setEncoding('utf8');
    socket.once('data', (data: string) => {
      socket.destroy();
      resolve(JSON.parse(data.replace(/^INFO /, '').trim()));
    });
    socket.once('error', reject);
  });
}

describe('embedded NATS', () => {
  let dataDir: string;
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('says how to get nats-server when there is none', () => {
    expect(findNatsServer('/nonexistent', [])).toBeUndefined();
    expect(new NatsServerNotFound().message).toMatch(/apt-get install nats-server.*NATS_URL/);
  });

  const itWithServer = findNatsServer() ? it : it.skip;
  itWithServer('runs with JetStream on loopback and stops', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'anvil-nats-'));
    const runner = new ProcessRunner({ write: () => undefined });
    const nats = await startNats({ dataDir, runner });
    try {
      expect(nats.url).toBe(`nats://127.0.0.1:${nats.port}`);
      const banner = await info(nats.port);
      expect(banner.jetstream).toBe(true);
    } finally {
      await nats.stop();
    }
    const exit = await runner.exited('nats');
    expect(exit.expected).toBe(true);
  }, 60_000);
});
