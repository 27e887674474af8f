// The hooks service's Prisma client. The store is the only folder that imports it.
import { prismaAdapter } from '@anvil/kit';
import { PrismaClient, type Prisma } from './generated/client.js';

export type HooksDb = PrismaClient;
/** The client handed to code running inside an interactive transaction (event handlers). */
export type HooksTx = Prisma.TransactionClient;

export function createDb(databaseUrl: string): HooksDb {
  return new PrismaClient({ adapter: prismaAdapter(databaseUrl) });
}
