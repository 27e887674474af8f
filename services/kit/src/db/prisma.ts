import { PrismaPg } from '@prisma/adapter-pg';

/** The driver adapter every service's Prisma client is built with (Prisma 7 needs one). */
export function prismaAdapter(databaseUrl: string, maxConnections = 10): PrismaPg {
  return new PrismaPg({ connectionString: databaseUrl, max: maxConnections });
}
