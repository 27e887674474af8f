// The repository service's Prisma client. The store is the only folder that imports it.
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { poolConfig } from '@anvil/kit';
import { PrismaClient, type Prisma } from './generated/client.js';

export type RepositoryDb = PrismaClient;
/** The client handed to code running inside an interactive transaction (event handlers). */
export type RepositoryTx = Prisma.TransactionClient;

/**
 * The pg pool under each client: hot reads (ResolveRepository, on every /repos/{o}/{r}
 * request and every git request) run as one prepared `pg` statement, skipping Prisma's
 * per-query overhead (notes/performance.md rule 4; test/bench measures it).
 */
const pools = new WeakMap<RepositoryDb, pg.Pool>();

export function createDb(databaseUrl: string): RepositoryDb {
  const pool = new pg.Pool(poolConfig(databaseUrl));
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  pools.set(db, pool);
  return db;
}

/** The pool under a client made by createDb; undefined inside a transaction. */
export function poolOf(db: RepositoryDb | RepositoryTx): pg.Pool | undefined {
  return pools.get(db as RepositoryDb);
}

/**
 * Runs `sql` on the pool's `pg` client when there is one (outside a transaction), else
 * through Prisma. `name` prepares it once per connection: give one only when the statement's
 * text comes from a small fixed set. `pg` answers int8 columns as strings and json as parsed
 * values; the statements here return rows as to_jsonb() writes them, the same either way.
 */
export async function queryRows<Row>(db: RepositoryDb | RepositoryTx, sql: Prisma.Sql, name?: string): Promise<Row[]> {
  const pool = poolOf(db);
  if (!pool) return db.$queryRaw<Row[]>(sql);
  const { rows } = await pool.query({ ...(name ? { name } : {}), text: sql.text, values: sql.values });
  return rows as Row[];
}
