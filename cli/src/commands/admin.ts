// `anvil admin user create`, shaped like Gitea's `gitea admin user create`. It talks to a
// running identity service over gRPC as the system caller, signed with the internal
// secret: from ANVIL__security__INTERNAL_TOKEN, else the one `anvil start` keeps in the
// data directory, at the identity address `anvil start` chose unless ANVIL_IDENTITY_ADDR is set.
import { randomBytes } from 'node:crypto';
import { ConfigError, createServiceClient, DomainError, loadConfig, SYSTEM } from '@anvil/kit';
import { loadAnvilGrpc, type identity } from '@anvil/proto';
import { readInternalToken } from '../internal-token.js';
import { readInternalAddresses } from '../ports.js';

export interface CreateUserArgs {
  username: string;
  password?: string;
  email: string;
  admin: boolean;
  mustChangePassword: boolean;
  /** Gitea's --random-password: generate one and print it. */
  randomPassword: boolean;
}

export interface CommandResult {
  code: number;
  stdout: string[];
  stderr: string[];
}

export async function createUser(args: CreateUserArgs, env: NodeJS.ProcessEnv = process.env): Promise<CommandResult> {
  const out: CommandResult = { code: 0, stdout: [], stderr: [] };
  const fail = (message: string): CommandResult => ({ ...out, code: 1, stderr: [...out.stderr, message] });

  if (args.randomPassword && args.password) return fail('Command error: --password and --random-password are mutually exclusive');
  if (!args.randomPassword && !args.password) return fail('Command error: must set either password or random-password flag');

  let config;
  try {
    config = loadConfig(env);
    // Under `anvil start` the internal addresses are chosen at start and written down.
    const chosen = readInternalAddresses(config.dataDir);
    const unset = Object.fromEntries(Object.entries(chosen).filter(([name]) => !env[name]));
    if (Object.keys(unset).length) config = loadConfig({ ...env, ...unset });
  } catch (err) {
    if (err instanceof ConfigError) return fail(err.message);
    throw err;
  }
  const secret = config.settings.security.INTERNAL_TOKEN ?? readInternalToken(config.dataDir);
  if (!secret) {
    return fail(`Command error: no internal token: set ANVIL__security__INTERNAL_TOKEN, or run this where \`anvil start\` keeps its data (${config.dataDir})`);
  }

  const password = args.randomPassword ? randomBytes(12).toString('base64url') : args.password!;
  const minLength = config.settings.security.MIN_PASSWORD_LENGTH;
  const tooShort = `Command error: password is too short: it must be at least ${minLength} characters ([security] MIN_PASSWORD_LENGTH)`;
  // Said here, with the rule, rather than as the API's bare "PasswordIsRequired".
  if (Buffer.byteLength(password, 'utf8') < minLength) return fail(tooShort);
  const address = config.addresses.identity;
  const client = createServiceClient<identity.IdentityServiceClient>(loadAnvilGrpc().anvil.identity.v1.IdentityService, address, secret);
  try {
    const request: identity.CreateUserRequestInput = {
      login: args.username,
      email: args.email,
      password,
      is_admin: args.admin,
      must_change_password: args.mustChangePassword,
    };
    await client.CreateUser(request, { caller: SYSTEM });
    if (args.randomPassword) out.stdout.push(`generated random password is '${password}'`);
    out.stdout.push(`New user '${args.username}' has been successfully created!`);
    return out;
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'unavailable') {
      return fail(`Command error: cannot reach the identity service at ${address}: ${err.message}`);
    }
    if (err instanceof DomainError && err.reason === 'password_too_short') return fail(tooShort);
    return fail(`Command error: CreateUser: ${(err as Error).message}`);
  } finally {
    client.close();
  }
}
