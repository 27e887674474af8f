// Loads configuration the way Gitea does: an optional app.ini, then environment overrides
// ANVIL__<section>__<KEY>, then Anvil's plain variables (DESIGN.md §5). Validated once at
// start; anything unknown or malformed stops the process with a message naming the key.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ini from 'ini';
import { configSchema, type Settings } from './schema.js';

export interface Config {
  settings: Settings;
  /** Public URL ending in "/": clone URLs, html_url and the error shape's url derive from it. */
  rootUrl: string;
  httpPort: number;
  dataDir: string;
  /** PostgreSQL server URL whose database name is the prefix of every service's database. */
  databaseUrl?: string;
  natsUrl?: string;
  admin?: { username: string; password: string; email: string };
  /** Where the gateway dials each service, and where a service listens. */
  addresses: Record<ServiceName, string>;
  /** Repository's HTTP side channel for packs and archives (DESIGN.md §3). */
  repositoryHttpAddress: string;
}

export type ServiceName = 'identity' | 'repository' | 'collaboration' | 'hooks';
export const SERVICE_NAMES: readonly ServiceName[] = ['identity', 'repository', 'collaboration', 'hooks'];
const DEFAULT_GRPC_PORTS: Record<ServiceName, number> = { identity: 50051, repository: 50052, collaboration: 50053, hooks: 50054 };

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function readIniFile(path: string): Record<string, Record<string, unknown>> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read configuration file ${path}: ${(err as Error).message}`);
  }
  const parsed = ini.parse(text) as Record<string, unknown>;
  const sections: Record<string, Record<string, unknown>> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value !== 'object' || value === null) {
      // Gitea allows a few top-level keys (APP_NAME, RUN_USER, RUN_MODE); APP_NAME is ours.
      if (key === 'APP_NAME') (sections.server ??= {}).APP_NAME = value;
      else if (key !== 'RUN_USER' && key !== 'RUN_MODE' && key !== 'WORK_PATH') throw new ConfigError(`unknown configuration key ${key} in ${path}`);
      continue;
    }
    sections[key.toLowerCase()] = { ...(sections[key.toLowerCase()] ?? {}), ...(value as Record<string, unknown>) };
  }
  return sections;
}

function envOverrides(env: Env, into: Record<string, Record<string, unknown>>): void {
  for (const [name, value] of Object.entries(env)) {
    const m = /^ANVIL__([^_].*?)__(.+)$/.exec(name);
    if (!m || value === undefined) continue;
    const section = m[1].toLowerCase().replace(/_0x2e_/gi, '.');
    (into[section] ??= {})[m[2]] = value;
  }
}

const HOST_PORT = /^[\w.-]+:\d+$|^\[[0-9a-f:]+\]:\d+$/i;

/**
 * host:port, a comma-separated list of them (replicas on one machine; calls are balanced
 * across the list), `dns:///host:port` (every address DNS returns, e.g. a Kubernetes
 * headless Service) or `unix:path`.
 */
function parseAddress(name: string, value: string): string {
  const valid =
    /^unix:/i.test(value) ||
    /^dns:\/\/[^/]*\/[\w.-]+:\d+$/i.test(value) ||
    value.split(',').every((part) => HOST_PORT.test(part.trim()));
  if (!valid) throw new ConfigError(`${name} must be host:port, a comma-separated list of them or dns:///host:port, got ${JSON.stringify(value)}`);
  return value;
}

function parsePort(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`${name} must be a TCP port, got ${JSON.stringify(value)}`);
  return port;
}

export function loadConfig(env: Env = process.env): Config {
  const raw = env.ANVIL_CONFIG ? readIniFile(resolve(env.ANVIL_CONFIG)) : {};
  envOverrides(env, raw);
  const result = configSchema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    const [section, key] = issue.path.map(String);
    const where = key ? `[${section}] ${key} (ANVIL__${section}__${key})` : `[${section}]`;
    const what = issue.code === 'unrecognized_keys' ? `unknown key(s) ${issue.keys.join(', ')}` : issue.message;
    throw new ConfigError(`invalid configuration ${where}: ${what}`);
  }
  const settings = result.data;

  const httpPort = parsePort('ANVIL_HTTP_PORT', env.ANVIL_HTTP_PORT, settings.server.HTTP_PORT ?? 3000);
  let rootUrl = env.ANVIL_ROOT_URL || settings.server.ROOT_URL || `http://localhost:${httpPort}/`;
  try {
    new URL(rootUrl);
  } catch {
    throw new ConfigError(`ANVIL_ROOT_URL must be an absolute URL, got ${JSON.stringify(rootUrl)}`);
  }
  if (!rootUrl.endsWith('/')) rootUrl += '/';

  const addresses = {} as Record<ServiceName, string>;
  for (const service of SERVICE_NAMES) {
    const name = `ANVIL_${service.toUpperCase()}_ADDR`;
    addresses[service] = parseAddress(name, env[name] ?? `127.0.0.1:${DEFAULT_GRPC_PORTS[service]}`);
  }
  const { ANVIL_ADMIN_USERNAME: username, ANVIL_ADMIN_PASSWORD: password, ANVIL_ADMIN_EMAIL: email } = env;
  if ((username || password || email) && !(username && password && email)) {
    throw new ConfigError('ANVIL_ADMIN_USERNAME, ANVIL_ADMIN_PASSWORD and ANVIL_ADMIN_EMAIL must be set together');
  }
  return {
    settings,
    rootUrl,
    httpPort,
    dataDir: resolve(env.ANVIL_DATA_DIR || './data'),
    databaseUrl: env.ANVIL_DATABASE_URL || undefined,
    natsUrl: env.NATS_URL || undefined,
    admin: username ? { username, password: password!, email: email! } : undefined,
    addresses,
    repositoryHttpAddress: parseAddress('ANVIL_REPOSITORY_HTTP_ADDR', env.ANVIL_REPOSITORY_HTTP_ADDR ?? '127.0.0.1:50062'),
  };
}

/** The database of one service: the prefix URL's database name plus `_<service>`. */
export function serviceDatabaseUrl(prefixUrl: string, service: ServiceName): string {
  const url = new URL(prefixUrl);
  const prefix = url.pathname.replace(/^\//, '') || 'anvil';
  url.pathname = `/${prefix}_${service}`;
  return url.toString();
}
