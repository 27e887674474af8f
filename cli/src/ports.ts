// The ports `anvil start` needs before it starts anything: the gateway's HTTP port and every
// internal address (gRPC per service, the repository's side channel). One held by another
// program is reported in one line naming the variable that moves it, instead of a child
// crashing half way through start-up.
import type { Config } from '@anvil/kit';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort, freePorts, isPortFree } from './net.js';

export interface PortClaim {
  /** The variable that sets it, e.g. `ANVIL_REPOSITORY_ADDR`. */
  variable: string;
  host: string;
  port: number;
}

function claimOf(variable: string, address: string): PortClaim | undefined {
  const match = /^(.*):(\d+)$/.exec(address);
  if (!match || address.startsWith('unix:')) return undefined;
  return { variable, host: match[1]!.replace(/^\[|\]$/g, ''), port: Number(match[2]) };
}

export function portClaims(config: Pick<Config, 'httpPort' | 'addresses' | 'repositoryHttpAddress'>, env: NodeJS.ProcessEnv): PortClaim[] {
  const claims: Array<PortClaim | undefined> = [
    { variable: 'ANVIL_HTTP_PORT', host: env.ANVIL_HTTP_HOST || '0.0.0.0', port: config.httpPort },
    ...Object.entries(config.addresses).map(([service, address]) => claimOf(`ANVIL_${service.toUpperCase()}_ADDR`, address)),
    claimOf('ANVIL_REPOSITORY_HTTP_ADDR', config.repositoryHttpAddress),
  ];
  return claims.filter((c): c is PortClaim => c !== undefined && c.port > 0);
}

/** The one line to print when a port is taken, or undefined when every port is free. */
export async function takenPortMessage(claims: readonly PortClaim[]): Promise<string | undefined> {
  for (const claim of claims) {
    if (await isPortFree(claim.port, claim.host)) continue;
    const spare = await freePort(claim.host === '0.0.0.0' ? '127.0.0.1' : claim.host);
    const suggestion = claim.variable === 'ANVIL_HTTP_PORT' ? String(spare) : `${claim.host}:${spare}`;
    return `port ${claim.port} (${claim.variable}) is in use by another program: set ${claim.variable}=${suggestion} or stop that program`;
  }
  return undefined;
}

/** The internal addresses `anvil start` chooses itself when the environment leaves them unset. */
export const INTERNAL_ADDRESS_VARIABLES = [
  'ANVIL_IDENTITY_ADDR', 'ANVIL_REPOSITORY_ADDR', 'ANVIL_COLLABORATION_ADDR', 'ANVIL_HOOKS_ADDR', 'ANVIL_REPOSITORY_HTTP_ADDR',
] as const;

/** Where `anvil start` writes the addresses it chose, for `anvil admin` to find identity. */
export const INTERNAL_ADDRESSES_FILE = 'internal-addresses.json';

/**
 * Free loopback addresses for the internal variables `env` leaves unset, so two installs on
 * one machine never fight over the same internal port. Set ones are kept as they are.
 */
export async function chooseInternalAddresses(env: NodeJS.ProcessEnv): Promise<Record<string, string>> {
  const unset = INTERNAL_ADDRESS_VARIABLES.filter((name) => !env[name]);
  const ports = await freePorts(unset.length);
  return Object.fromEntries(unset.map((name, i) => [name, `127.0.0.1:${ports[i]}`]));
}

export async function writeInternalAddresses(dataDir: string, addresses: Record<string, string>): Promise<void> {
  await writeFile(join(dataDir, INTERNAL_ADDRESSES_FILE), `${JSON.stringify(addresses, null, 2)}\n`);
}

/** The addresses the running `anvil start` of `dataDir` chose; empty when there is none. */
export function readInternalAddresses(dataDir: string): Record<string, string> {
  try {
    const parsed = JSON.parse(readFileSync(join(dataDir, INTERNAL_ADDRESSES_FILE), 'utf8')) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(parsed).filter(([k, v]) => (INTERNAL_ADDRESS_VARIABLES as readonly string[]).includes(k) && typeof v === 'string')) as Record<string, string>;
  } catch {
    return {};
  }
}
