// The repository service's Prisma client. The store is the only folder that imports it.
import { prismaAdapter } from '@anvil/kit';
import { PrismaClient, type Prisma } from './generated/client.js';

export type RepositoryDb = PrismaClient;
/** The client handed to code running inside an interactive transaction (event handlers). */
export type RepositoryTx = Prisma.TransactionClient;

export function createDb(databaseUrl: string): RepositoryDb {
  return new PrismaClient({ adapter: prismaAdapter(databaseUrl) });
}
