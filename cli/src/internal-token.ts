// The secret that signs caller identity between the gateway and the services
// ([security] INTERNAL_TOKEN). When the operator sets none, `pnpm start` makes one and
// keeps it in <dataDir>/internal_token (0600), so a restart, or `anvil admin` run next
// to a live system, uses the same secret as the running processes.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const INTERNAL_TOKEN_FILE = 'internal_token';

/** The persisted token, or undefined when there is none (yet). */
export function readInternalToken(dataDir: string): string | undefined {
  try {
    const token = readFileSync(join(dataDir, INTERNAL_TOKEN_FILE), 'utf8').trim();
    return token.length >= 32 ? token : undefined;
  } catch {
    return undefined;
  }
}

export async function loadOrCreateInternalToken(dataDir: string): Promise<string> {
  const existing = readInternalToken(dataDir);
  if (existing) return existing;
  await mkdir(dataDir, { recursive: true });
  const token = randomBytes(32).toString('base64url'); // 43 characters; the config wants >= 32
  await writeFile(join(dataDir, INTERNAL_TOKEN_FILE), `${token}\n`, { mode: 0o600 });
  return token;
}
