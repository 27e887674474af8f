import { PrismaPg } from '@prisma/adapter-pg';

/**
 * How long an idle pooled connection is kept. node-postgres closes one after 10 s idle by
 * default, and the next request then waits for a new PostgreSQL backend (a process fork,
 * 10–20 ms on these machines) and prepares its statements again: a quiet service paid that
 * on nearly every request, and a merge after a pause paid it in three services. A pool
 * still opens connections only as concurrency needs them, up to its `max`.
 */
export const POOL_IDLE_TIMEOUT_MS = 10 * 60_000;

/** node-postgres pool settings for a service's database (its Prisma adapter and its raw statements). */
export function poolConfig(databaseUrl: string, maxConnections = 10): { connectionString: string; max: number; idleTimeoutMillis: number } {
  return { connectionString: databaseUrl, max: maxConnections, idleTimeoutMillis: POOL_IDLE_TIMEOUT_MS };
}

/** The driver adapter every service's Prisma client is built with (Prisma 7 needs one). */
export function prismaAdapter(databaseUrl: string, maxConnections = 10): PrismaPg {
  return new PrismaPg(poolConfig(databaseUrl, maxConnections));
}

/**
 * Options for every interactive transaction. Prisma gives up after waiting 2 s for a pooled
 * connection: a burst of writers larger than the pool (50 statuses on one commit, a busy
 * 2-core machine) would answer 500s. Waiting longer queues them instead; `timeout` bounds a
 * transaction that holds its connection.
 */
export const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 15_000 } as const;

/** What a store over the outbox is told: a transaction that published events committed. */
export interface OutboxStoreOptions {
  /** Called after such a commit, to wake the outbox relay at once. */
  onPublished?(): void;
}

/** The interactive transaction a Prisma client offers (a structural view, so kit needs no client). */
interface InteractiveTransactions<Tx> {
  $transaction<R>(fn: (tx: Tx) => Promise<R>, options?: { maxWait?: number; timeout?: number }): Promise<R>;
}

/**
 * One transaction for a change and the events it publishes (the outbox): `writerOf` builds
 * the store's writer over the transaction and pushes each event it writes to `published`;
 * once the transaction has committed, a change that published something wakes the relay.
 */
export async function outboxTransaction<Tx, W, E, R>(
  db: InteractiveTransactions<Tx>, writerOf: (tx: Tx, published: E[]) => W, work: (writer: W) => Promise<R>, options: OutboxStoreOptions,
): Promise<R> {
  const published: E[] = [];
  const result = await db.$transaction((tx) => work(writerOf(tx, published)), TRANSACTION_OPTIONS);
  if (published.length > 0) options.onPublished?.();
  return result;
}
