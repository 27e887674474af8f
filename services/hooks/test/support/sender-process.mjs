// One replica's sender pool in a process of its own, for the test that kills it with
// SIGKILL mid-send. Runs the built service (dist/); env: DATABASE_URL, LEASE_MS, SECRET_KEY.
import { createLogger, hostList, listenForNotifications, secretBox } from '@anvil/kit';
import { outboundDispatcher } from '@anvil/kit/outbound';
import { startSenders } from '../../dist/delivery/sender.js';
import { createDb } from '../../dist/store/db.js';
import { DELIVERY_CHANNEL, deliveryQueue } from '../../dist/store/deliveries.js';

const log = createLogger('hooks-sender-child');
const db = createDb(process.env.DATABASE_URL);
const dispatcher = outboundDispatcher({ allowed: hostList(['loopback']), setting: '[webhook] ALLOWED_HOST_LIST', connectTimeoutMs: 10_000 });
const pool = startSenders({
  queue: deliveryQueue(db, secretBox(process.env.SECRET_KEY, 'webhook secrets')), dispatcher, timeoutMs: 10_000, leaseMs: Number(process.env.LEASE_MS), log,
  policy: { maxAttempts: 3, backoffMs: 50 }, senders: 8, maxPerHost: 8,
});
listenForNotifications(process.env.DATABASE_URL, { [DELIVERY_CHANNEL]: pool.kick }, log, 'webhook deliveries');
process.send?.('ready');
