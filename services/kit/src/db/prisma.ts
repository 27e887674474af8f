import { PrismaPg } from '@prisma/adapter-pg';

/** The driver adapter every service's Prisma client is built with (Prisma 7 needs one). */
export function prismaAdapter(databaseUrl: string, maxConnections = 10): PrismaPg {
  return new PrismaPg({ connectionString: databaseUrl, max: maxConnections });
}

/**
 * Options for every interactive transaction. Prisma gives up after waiting 2 s for a pooled
 * connection: a burst of writers larger than the pool (50 statuses on one commit, a busy
 * 2-core machine) would answer 500s. Waiting longer queues them instead; `timeout` bounds a
 * transaction that holds its connection.
 */
export const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 15_000 } as const;
