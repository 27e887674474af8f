// The identity service's Prisma client. src/store/ is the only folder that imports it.
import { prismaAdapter } from '@anvil/kit';
import { Prisma, PrismaClient } from './generated/client.js';

export type IdentityDb = PrismaClient;
/** The client handed to code running inside an interactive transaction. */
export type IdentityTx = Prisma.TransactionClient;

export function createDb(databaseUrl: string): IdentityDb {
  return new PrismaClient({ adapter: prismaAdapter(databaseUrl) });
}

/** A unique index refused the write (Prisma's P2002). */
export function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';
}
