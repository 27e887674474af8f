// Reads and validates the configuration in a short-lived node process and hands the
// supervisor the few values it needs. The supervisor lives as long as Anvil does, and the
// validation library (zod) would stay resident in it for good, about 12 MiB (`pnpm bench`,
// footprint part); a child that exits gives it all back.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Config } from '@anvil/kit/config';

/** What `anvil start` needs from the configuration (plain data: it crosses a pipe as JSON). */
export type StartConfig = Pick<Config, 'dataDir' | 'databaseUrl' | 'natsUrl' | 'httpPort' | 'rootUrl' | 'addresses' | 'repositoryHttpAddress'> & {
  internalToken?: string;
};

export type ConfigCheck = { ok: true; config: StartConfig } | { ok: false; message: string };

const SELF = fileURLToPath(import.meta.url);

/** Validates `env`'s configuration in a child process (this file run as a script). */
export function checkConfig(env: NodeJS.ProcessEnv): ConfigCheck {
  const out = execFileSync(process.execPath, [SELF], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(out) as ConfigCheck;
}

async function main(): Promise<void> {
  const { ConfigError, loadConfig } = await import('@anvil/kit/config');
  let answer: ConfigCheck;
  try {
    const config = loadConfig(process.env);
    answer = {
      ok: true,
      config: {
        dataDir: config.dataDir, databaseUrl: config.databaseUrl, natsUrl: config.natsUrl,
        httpPort: config.httpPort, rootUrl: config.rootUrl, addresses: config.addresses,
        repositoryHttpAddress: config.repositoryHttpAddress, internalToken: config.settings.security.INTERNAL_TOKEN,
      },
    };
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    answer = { ok: false, message: err.message };
  }
  process.stdout.write(JSON.stringify(answer));
}

if (process.argv[1] === SELF) await main();
