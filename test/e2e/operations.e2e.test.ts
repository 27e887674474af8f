// What an operator relies on: the admin CLI, an idempotent admin bootstrap, a health check
// that tells the truth, and no lost events when a service is down while others write.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createServiceClient, DomainError, serviceDatabaseUrl, SYSTEM, type ServiceClient } from '@anvil/kit';
import { encodeEvent, loadAnvilGrpc, type repository } from '@anvil/proto';
import { waitUntil } from '../../cli/src/net.js';
import { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e } from '../support/e2e.js';
import type { RunningSystem } from '../support/system.js';

jest.setTimeout(90_000);

const run = promisify(execFile);
const CLI = new URL('../../cli/dist/main.js', import.meta.url).pathname;

let e2e: E2e;
let system: RunningSystem;
let anonymous: ApiClient;
let admin: ApiClient;
let owners: ServiceClient<repository.RepositoryServiceClient>;

beforeAll(async () => {
  e2e = await bootE2e();
  ({ system, anonymous, admin } = e2e);
  owners = createServiceClient<repository.RepositoryServiceClient>(
    loadAnvilGrpc().anvil.repository.v1.RepositoryService,
    system.env.ANVIL_REPOSITORY_ADDR!,
    system.env.ANVIL__security__INTERNAL_TOKEN!,
    { deadlineMs: 2_000 },
  );
}, 180_000);

afterAll(async () => {
  owners?.close();
  await e2e?.close();
});

function cli(...args: string[]) {
  return run(process.execPath, [CLI, ...args], { env: { ...system.env } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
  );
}

/** The owner as repository's read model has it, or undefined while it does not (yet). */
async function ownerInReadModel(login: string): Promise<repository.Owner | undefined> {
  try {
    return await owners.GetOwner({ login }, { caller: SYSTEM });
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'not_found') return undefined;
    throw err;
  }
}

async function healthStatus(): Promise<number> {
  return (await fetch(`${system.baseUrl}api/healthz`)).status;
}

describe('the admin CLI', () => {
  test('`anvil admin user create` makes a user who can sign in, and an admin with --admin', async () => {
    const made = await cli('admin', 'user', 'create', '--username', 'cli-made', '--password', 'cli-password-1', '--email', 'cli-made@example.com', '--admin');
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(made.stdout).toContain("New user 'cli-made' has been successfully created!");

    const me = await anonymous.as({ basic: ['cli-made', 'cli-password-1'] }).get('/user');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ login: 'cli-made', is_admin: true });
  });

  test('refuses a taken username with a message and a non-zero exit', async () => {
    const again = await cli('admin', 'user', 'create', '--username', 'cli-made', '--password', 'cli-password-2', '--email', 'other@example.com');
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/already exists/);
    // The first account's password still works: nothing was overwritten.
    expect((await anonymous.as({ basic: ['cli-made', 'cli-password-1'] }).get('/user')).status).toBe(200);
  });
});

describe('an event that can never be published', () => {
  test('is set aside while later events flow, and `anvil admin events` shows it', async () => {
    // A 2 MiB event in identity's outbox, as an older version without event bounds could
    // have written: above NATS's max_payload (1 MiB), it used to block every later event.
    const id = randomUUID();
    const db = new pg.Client({ connectionString: serviceDatabaseUrl(system.env.ANVIL_DATABASE_URL!, 'identity') });
    await db.connect();
    try {
      const payload = encodeEvent('anvil.identity.v1.UserDeleted', { user_id: 999_999, login: 'x'.repeat(2 * 1024 * 1024) });
      await db.query('INSERT INTO outbox_event (id, subject, type, payload) VALUES ($1, $2, $3, $4)',
        [id, 'identity.user.deleted', 'anvil.identity.v1.UserDeleted', Buffer.from(payload)]);
    } finally {
      await db.end();
    }
    // A user created afterwards still reaches the repository service (newUser waits for it).
    await e2e.users.newUser();

    const listed = await cli('admin', 'events', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('identity: 1 dead letter');
    expect(listed.stdout).toContain(`${id}  identity.user.deleted`);
    expect(listed.stdout).toMatch(/more than the NATS server accepts \(max_payload \d+ bytes\)/);
    for (const service of ['repository', 'collaboration', 'hooks']) expect(listed.stdout).toContain(`${service}: 0 dead letters`);

    const shown = await cli('admin', 'events', 'show', id);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('"user_id": 999999');
    expect(shown.stdout.length).toBeLessThan(10_000);
  });
});

describe('restarting a service', () => {
  test('the admin bootstrap is idempotent: identity restarts and the same admin signs in', async () => {
    const before = await admin.get('/user');
    await system.stop('identity');
    await system.start('identity');
    // The gateway answers 503 for identity's routes until each of its channels has
    // reconnected (about 2 s): wait until a route that needs identity answers again (the
    // 503s meanwhile are not in the document, so these polls go out unchecked).
    await waitUntil('the gateway to reach identity again', async () =>
      (await admin.undeclared('GET', `/admin/users?q=${system.admin.username}`)).status === 200);
    const after = await admin.get('/user');
    expect(after.status).toBe(200);
    expect(after.body.id).toBe(before.body.id);
    const admins = await admin.get(`/admin/users?q=${system.admin.username}`);
    expect(admins.body.filter((u: { login: string }) => u.login === system.admin.username)).toHaveLength(1);
  });

  test('healthz answers 503 while a service is down and 200 once it is back', async () => {
    expect(await healthStatus()).toBe(200);
    await system.stop('hooks');
    try {
      const res = await fetch(`${system.baseUrl}api/healthz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ status: 'fail' });
    } finally {
      await system.start('hooks');
    }
    expect(await healthStatus()).toBe(200);
  });

  test("users created and deleted while repository is stopped reach its owner read model after it restarts", async () => {
    const created = await admin.post('/admin/users', { username: 'before-stop', email: 'before-stop@example.com', password: 'long-enough-pw', must_change_password: false });
    expect(created.status).toBe(201);
    await waitUntil('repository to learn of before-stop', async () => (await ownerInReadModel('before-stop')) !== undefined);

    await system.stop('repository');
    const whileDown = [];
    for (let i = 0; i < 5; i++) {
      const res = await admin.post('/admin/users', { username: `while-down-${i}`, email: `while-down-${i}@example.com`, password: 'long-enough-pw', must_change_password: false });
      expect(res.status).toBe(201);
      whileDown.push(res.body as { id: number; login: string });
    }
    // Whether before-stop still owns repositories is repository's to say: while it is down a
    // plain delete is refused (nothing deleted; 503 is not in the document), and only a purge goes ahead.
    expect((await admin.undeclared('DELETE', '/admin/users/before-stop')).status).toBe(503);
    expect((await admin.get('/users/before-stop')).status).toBe(200);
    expect((await admin.delete('/admin/users/before-stop?purge=true')).status).toBe(204);
    await system.start('repository');

    for (const user of whileDown) {
      await waitUntil(`repository to learn of ${user.login}`, async () => (await ownerInReadModel(user.login)) !== undefined, { timeoutMs: 20_000 });
      expect(await ownerInReadModel(user.login)).toMatchObject({ id: user.id, login: user.login, type: 'user' });
    }
    await waitUntil('repository to forget before-stop', async () => (await ownerInReadModel('before-stop')) === undefined, { timeoutMs: 20_000 });
  });

  test('no process crashed on its own', () => {
    expect(system.crashes).toEqual([]);
  });
});
