// Prisma config used by bin/prisma.mjs for a service that has no prisma.config.*
// of its own: the schema is ./prisma/schema.prisma relative to the working
// directory (the service folder) and the URL comes from DATABASE_URL.
// prisma.config files do not load .env; export DATABASE_URL yourself.
import path from 'node:path';
import { defineConfig } from 'prisma/config';

const dir = path.resolve(process.cwd(), 'prisma');
const url = process.env.DATABASE_URL;

export default defineConfig({
  schema: path.join(dir, 'schema.prisma'),
  migrations: { path: path.join(dir, 'migrations') },
  // Left out when unset, so `generate` needs no database.
  ...(url ? { datasource: { url, shadowDatabaseUrl: process.env.SHADOW_DATABASE_URL } } : {}),
});
