// One replica's event consumer in a process of its own, for the test that kills it with
// SIGKILL mid-burst. Runs the built service (dist/); env: DATABASE_URL, NATS_URL, NAMESPACE.
import { connectEventBus, createLogger, startConsumer } from '@anvil/kit';
import { webhookConsumer } from '../../dist/events/webhook-consumer.js';
import { createDb } from '../../dist/store/db.js';

const log = createLogger('hooks-consumer-child');
const db = createDb(process.env.DATABASE_URL);
const bus = await connectEventBus(process.env.NATS_URL, 'hooks-consumer-child', process.env.NAMESPACE, log);
await startConsumer({ ...webhookConsumer('http://anvil.test/', undefined, db), db, bus, log, batch: 16 });
process.send?.('ready');
