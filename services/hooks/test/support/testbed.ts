// The hooks service's integration testbed: a database of the run's own with the service's
// migrations, an events namespace of its own, and a real local HTTP receiver that records
// every request (raw body bytes included) and answers as the test tells it.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createLogger, hostList, listenForNotifications, outboxEvent, secretBox, startConsumer, startOutboxRelay, type EventBus, type Logger, type RunningConsumer, type SecretBox } from '@anvil/kit';
import { outboundDispatcher } from '@anvil/kit/outbound';
import { newRunId, Teardown, testDatabase, testEventBus } from '../../../../test/support/int-testbed.js';
import { startSenders, type SenderPool } from '../../src/delivery/sender.js';
import { webhookConsumer } from '../../src/events/webhook-consumer.js';
import { createDb, type HooksDb, type HooksTx } from '../../src/store/db.js';
import { DELIVERY_CHANNEL, deliveryQueue } from '../../src/store/deliveries.js';
import { HookMatchCache, WEBHOOK_CHANNEL } from '../../src/store/hook-match-cache.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));
export const ROOT_URL = 'http://anvil.test/';
/** The key material the testbed seals hook secrets with (a deployment's [security] SECRET_KEY). */
export const TEST_SECRET_KEY = 'hooks-testbed-secret-key-0123456789abcdef';
export const TEST_BOX = secretBox(TEST_SECRET_KEY, 'webhook secrets');

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface Receiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Decides each answer (status, optional delay); 200 by default. */
  answer: (req: ReceivedRequest, index: number) => { status: number; delayMs?: number; location?: string };
  /** Resolves once `count` requests arrived (5 s hang guard by the caller's test timeout). */
  waitFor(count: number): Promise<void>;
}

async function startReceiver(teardown: Teardown): Promise<Receiver> {
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const receiver: Receiver = {
    url: '', port: 0, requests: [], answer: () => ({ status: 200 }),
    waitFor(count) {
      if (receiver.requests.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      const index = receiver.requests.push(received) - 1;
      for (const w of waiters.filter((w) => receiver.requests.length >= w.count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      const { status, delayMs = 0, location } = receiver.answer(received, index);
      setTimeout(() => {
        res.writeHead(status, { 'content-type': 'text/plain', ...(location ? { location } : {}) });
        res.end(`answered ${status}`);
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hook`;
  teardown.add(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  return receiver;
}

export interface HooksTestbed {
  log: Logger;
  db: HooksDb;
  databaseUrl: string;
  bus: EventBus;
  /** What main.ts seals hook secrets with. */
  box: SecretBox;
  receiver(): Promise<Receiver>;
  /** The consumers' hook cache, which the `webhook_changed` listener empties after a hook change. */
  hookCache: HookMatchCache;
  /** A `hooks` consumer, as one replica runs it (batches of up to `batch` waiting events, 64 as by default). */
  consumer(options?: { batch?: number }): Promise<RunningConsumer>;
  /** A sender pool, as one replica runs it, allowing `allowed` ([webhook] ALLOWED_HOST_LIST); stopped at close() if not before. */
  senders(options?: { allowed?: string[]; maxAttempts?: number; timeoutMs?: number; maxPerHost?: number }): SenderPool;
  /** Publishes an event through an outbox row and the kit's relay; answers its id. */
  publish(subject: string, type: string, payload: object): Promise<string>;
  close(): Promise<void>;
}

export async function hooksTestbed(name: string): Promise<HooksTestbed> {
  process.env.ANVIL_LOG_LEVEL ??= 'silent';
  const log = createLogger('hooks-test');
  const runId = newRunId();
  const teardown = new Teardown();
  return teardown.guard(async () => {
    const database = await testDatabase(`anvil_hooks_${name}_test_${runId}`, MIGRATIONS_DIR);
    teardown.add(() => database.drop());
    const db = createDb(database.url);
    teardown.add(() => db.$disconnect());
    const events = await testEventBus('hooks-test', `anvil_test_hooks_${name}_${runId}`, log);
    teardown.add(() => events.close());
    const { bus } = events;
    // Events are published as a service publishes them: an outbox row, sent by the relay.
    const relay = startOutboxRelay(db, bus, log, 100);
    teardown.add(() => relay.stop());
    // As in main.ts: the consumers share a hook cache that hook changes empty.
    const cache = new HookMatchCache();
    const cacheListener = listenForNotifications(database.url, { [WEBHOOK_CHANNEL]: () => cache.clear() }, log, 'hook changes');
    teardown.add(() => cacheListener.stop());
    return {
      log, db, databaseUrl: database.url, bus, box: TEST_BOX, hookCache: cache,
      receiver: () => startReceiver(teardown),
      async consumer({ batch = 64 } = {}) {
        const running = await startConsumer<HooksTx>({ ...webhookConsumer(ROOT_URL, cache, db), db, bus, log, batch });
        teardown.add(() => running.stop());
        return running;
      },
      senders({ allowed = ['loopback'], maxAttempts = 4, timeoutMs = 2_000, maxPerHost = 4 } = {}) {
        const dispatcher = outboundDispatcher({ allowed: hostList(allowed), setting: '[webhook] ALLOWED_HOST_LIST', connectTimeoutMs: timeoutMs, maxRedirections: 3 });
        const pool = startSenders({
          queue: deliveryQueue(db, TEST_BOX), dispatcher, timeoutMs, log, policy: { maxAttempts, backoffMs: 50 }, senders: 8, maxPerHost,
        });
        const listener = listenForNotifications(database.url, { [DELIVERY_CHANNEL]: pool.kick }, log, 'queued deliveries');
        let stopping: Promise<void> | undefined;
        const stop = () => (stopping ??= (async () => {
          await listener.stop();
          await pool.stop();
          await dispatcher.close();
        })());
        teardown.add(stop);
        return { kick: pool.kick, stop };
      },
      async publish(subject, type, payload) {
        const row = outboxEvent(subject, type, payload);
        await db.outboxEvent.create({ data: row });
        relay.kick();
        return row.id;
      },
      close: () => teardown.run(),
    };
  });
}
