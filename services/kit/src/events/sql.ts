// The slice of a Prisma client the outbox and consumer need. Every service's schema holds
// the two tables below (see services/kit/prisma/events.prisma), so the kit can work with
// any of the four clients without importing one.
export interface SqlClient {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

export interface TransactionalSqlClient<Tx extends SqlClient = SqlClient> extends SqlClient {
  // Prisma's $transaction is overloaded; this is the interactive form the kit uses.
  $transaction<R>(fn: (tx: Tx) => Promise<R>, options?: { timeout?: number; maxWait?: number }): Promise<R>;
}
