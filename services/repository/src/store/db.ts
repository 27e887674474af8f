// The repository service's Prisma client. The store is the only folder that imports it.
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { poolConfig } from '@anvil/kit';
import { currentWriter } from '../domain/write-turn.js';
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

/**
 * Connections kept for the statements of write turns (TurnRoutedPool), beside the pool's
 * own. A turn's start sends three statements at once: with four, twenty repositories
 * written at once queued for them as the reads had.
 */
export const WRITE_TURN_CONNECTIONS = 10;

/**
 * Writes keep their own budget: a statement issued in a repository's write turn
 * (domain/write-turn.ts), Prisma's too through the adapter, runs on connections of its own,
 * so it never waits behind the reads queued for the main pool. Under the mixed bench's load
 * all ten of those were busy half the time, and each round trip of a write turn waited
 * 15–25 ms for one. Only single statements move here: a transaction holds its connection
 * across awaits, and turns holding these while asking for more could wait on each other.
 */
export class TurnRoutedPool extends pg.Pool {
  readonly turns: pg.Pool;

  constructor(config: pg.PoolConfig, turnConnections = WRITE_TURN_CONNECTIONS) {
    super(config);
    this.turns = new pg.Pool({ ...config, max: turnConnections });
    this.turns.on('error', (err) => this.emit('error', err));
  }

  // Typed loosely: pg's overloads are passed through whole.
  override query(...args: unknown[]): any {
    return currentWriter() ? Reflect.apply(this.turns.query, this.turns, args) : Reflect.apply(super.query, this, args);
  }

  override end(callback?: () => void): any {
    const ended = Promise.all([super.end(), this.turns.end()]).then(() => undefined);
    if (!callback) return ended;
    void ended.then(callback, callback);
  }
}

export function createDb(databaseUrl: string): RepositoryDb {
  const pool = new TurnRoutedPool(poolConfig(databaseUrl));
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
