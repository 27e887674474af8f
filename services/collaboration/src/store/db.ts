// The collaboration service's Prisma client. The store is the only folder that imports it.
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { poolConfig } from '@anvil/kit';
import { PrismaClient, type Prisma } from './generated/client.js';

export type CollaborationDb = PrismaClient;
/** The client handed to code running inside an interactive transaction (event handlers). */
export type CollaborationTx = Prisma.TransactionClient;

/**
 * The pg pool under each client: hot list reads (issues, pulls, notifications) run as one
 * prepared `pg` statement, skipping Prisma's per-query work — its raw-query decoding costs
 * more CPU than the statement (notes/performance.md rule 4; `pnpm bench`, issues part).
 */
const pools = new WeakMap<CollaborationDb, pg.Pool>();

export function createDb(databaseUrl: string): CollaborationDb {
  const pool = new pg.Pool(poolConfig(databaseUrl));
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  pools.set(db, pool);
  return db;
}

/** The pool under a client made by createDb; undefined inside a transaction. */
export function poolOf(db: CollaborationDb | CollaborationTx): pg.Pool | undefined {
  return pools.get(db as CollaborationDb);
}

/**
 * Runs `sql` on the pool's `pg` client when there is one (outside a transaction), else
 * through Prisma. `name` prepares it once per connection: give one only when the statement's
 * text comes from a small fixed set (not, say, one text per number of filter values).
 * `pg` answers int8 columns as strings and json as parsed values; callers convert with Number().
 */
export async function queryRows<Row>(db: CollaborationDb | CollaborationTx, sql: Prisma.Sql, name?: string): Promise<Row[]> {
  const pool = poolOf(db);
  if (!pool) return db.$queryRaw<Row[]>(sql);
  const { rows } = await pool.query({ ...(name ? { name } : {}), text: sql.text, values: sql.values });
  return rows as Row[];
}
