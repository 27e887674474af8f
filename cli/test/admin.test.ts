// `anvil admin user create` against a stand-in identity service built with the kit's own
// gRPC server, so the signed caller metadata is checked exactly as the real service does.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { alreadyExists, createLogger, startGrpcServer, type Caller, type RunningGrpcServer } from '@anvil/kit';
import { loadAnvilGrpc, type identity } from '@anvil/proto';
import { createUser, type CreateUserArgs } from '../src/commands/admin.js';
import { freePort } from '../src/net.js';

const SECRET = 's'.repeat(40);
const received: Array<{ request: identity.CreateUserRequest; caller: Caller }> = [];

describe('admin user create', () => {
  let server: RunningGrpcServer;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    process.env.ANVIL_LOG_LEVEL = 'silent';
    server = await startGrpcServer({
      listen: '127.0.0.1:0',
      secret: SECRET,
      log: createLogger('identity-stub'),
      services: [
        {
          name: 'anvil.identity.v1.IdentityService',
          definition: loadAnvilGrpc().anvil.identity.v1.IdentityService.service,
          implementation: {
            CreateUser: async (request: identity.CreateUserRequest, { caller }: { caller: Caller }) => {
              if (request.login === 'taken') throw alreadyExists(`user already exists [name: ${request.login}]`);
              received.push({ request, caller });
              return { id: 7, login: request.login, email: request.email, is_admin: request.is_admin };
            },
          },
        },
      ],
    });
    env = { ANVIL_IDENTITY_ADDR: `127.0.0.1:${server.port}`, ANVIL__security__INTERNAL_TOKEN: SECRET, ANVIL_DATA_DIR: '/nonexistent' };
  });
  afterAll(() => server.shutdown(100));

  const args = (over: Partial<CreateUserArgs>): CreateUserArgs => ({
    username: 'alice',
    email: 'alice@example.com',
    password: 'secret123',
    admin: false,
    mustChangePassword: false,
    randomPassword: false,
    ...over,
  });

  it('creates the user as the system caller and prints what Gitea prints', async () => {
    const result = await createUser(args({ admin: true, mustChangePassword: true }), env);
    expect(result).toEqual({ code: 0, stdout: ["New user 'alice' has been successfully created!"], stderr: [] });
    expect(received[0].request).toMatchObject({ login: 'alice', email: 'alice@example.com', password: 'secret123', is_admin: true, must_change_password: true });
    expect(received[0].caller).toMatchObject({ login: 'anvil-system', isAdmin: true });
  });

  it('generates and prints a random password when asked', async () => {
    const result = await createUser(args({ username: 'bob', password: undefined, randomPassword: true }), env);
    expect(result.code).toBe(0);
    const printed = /generated random password is '(.+)'/.exec(result.stdout[0])![1];
    expect(received.at(-1)!.request.password).toBe(printed);
  });

  it('says a short password is too short and names the rule, without calling the service', async () => {
    const before = received.length;
    const result = await createUser(args({ username: 'shorty', password: 'short' }), env);
    expect(result).toMatchObject({ code: 1, stderr: ['Command error: password is too short: it must be at least 8 characters ([security] MIN_PASSWORD_LENGTH)'] });
    expect(received).toHaveLength(before);
    const longer = await createUser(args({ username: 'shorty', password: 'short' }), { ...env, ANVIL__security__MIN_PASSWORD_LENGTH: '4' });
    expect(longer.code).toBe(0);
  });

  it('finds identity at the address anvil start chose and wrote into the data directory', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'anvil-admin-'));
    try {
      await writeFile(join(dataDir, 'internal-addresses.json'), JSON.stringify({ ANVIL_IDENTITY_ADDR: env.ANVIL_IDENTITY_ADDR }));
      const { ANVIL_IDENTITY_ADDR: _unset, ...rest } = env;
      const result = await createUser(args({ username: 'found' }), { ...rest, ANVIL_DATA_DIR: dataDir });
      expect(result.code).toBe(0);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("fails with the service's message", async () => {
    const result = await createUser(args({ username: 'taken' }), env);
    expect(result.code).toBe(1);
    expect(result.stderr).toEqual(['Command error: CreateUser: user already exists [name: taken]']);
  });

  it('fails when the signature does not match the service secret', async () => {
    const result = await createUser(args({ username: 'mallory' }), { ...env, ANVIL__security__INTERNAL_TOKEN: 'w'.repeat(40) });
    expect(result.code).toBe(1);
    expect(result.stderr[0]).toMatch(/Command error: CreateUser: .*forged caller metadata/);
  });

  it('says when the identity service cannot be reached or no secret is known', async () => {
    const down = await createUser(args({}), { ...env, ANVIL_IDENTITY_ADDR: `127.0.0.1:${await freePort()}` });
    expect(down.code).toBe(1);
    expect(down.stderr[0]).toMatch(/cannot reach the identity service at 127\.0\.0\.1:\d+/);

    const noSecret = await createUser(args({}), { ANVIL_IDENTITY_ADDR: env.ANVIL_IDENTITY_ADDR, ANVIL_DATA_DIR: '/nonexistent' });
    expect(noSecret.stderr[0]).toMatch(/no internal token/);
  });
});
