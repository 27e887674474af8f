// What keeps parallel e2e runs from seeing each other on the shared PostgreSQL and NATS
// servers: a random database prefix (services create `<prefix>_<service>` themselves at
// start) and a random events namespace (ANVIL_EVENTS_NAMESPACE: the kit's stream and
// subjects derive from it). cleanUp() removes both once the run is over.
import { randomBytes } from 'node:crypto';
import { connect } from 'nats';
import pg from 'pg';

export interface RunNames {
  /** Database name prefix, e.g. `anvil_e2e_1a2b3c4d`. */
  databasePrefix: string;
  /** ANVIL_EVENTS_NAMESPACE for this run, e.g. `e2e_1a2b3c4d`. */
  eventsNamespace: string;
}

export function newRunNames(): RunNames {
  const id = randomBytes(4).toString('hex');
  return { databasePrefix: `anvil_e2e_${id}`, eventsNamespace: `e2e_${id}` };
}

/** The server URL with another database: `prefixUrl(server, 'anvil_e2e_x')` → `.../anvil_e2e_x`. */
export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Drops every database of the run, connections and all (a crashed service may still hold some). */
export async function dropRunDatabases(serverUrl: string, prefix: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1 ESCAPE '!'`,
      [`${prefix.replace(/[!_%]/g, '!$&')}!_%`],
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(datname)} WITH (FORCE)`);
    return rows.map((r) => r.datname);
  } finally {
    await client.end();
  }
}

/**
 * Deletes the run's JetStream streams (their consumers go with them). Found by subject
 * rather than by name so this does not depend on how the kit names the stream.
 */
export async function deleteRunStreams(natsUrl: string, namespace: string): Promise<string[]> {
  const nc = await connect({ servers: natsUrl, name: 'anvil-e2e-cleanup' });
  try {
    const jsm = await nc.jetstreamManager();
    const deleted: string[] = [];
    for await (const stream of jsm.streams.list()) {
      if (stream.config.subjects?.some((subject) => subject === `${namespace}.>` || subject.startsWith(`${namespace}.`))) {
        await jsm.streams.delete(stream.config.name);
        deleted.push(stream.config.name);
      }
    }
    return deleted;
  } finally {
    await nc.close();
  }
}
