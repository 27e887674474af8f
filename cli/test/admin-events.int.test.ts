// `anvil admin events` against a real service database (identity's schema, which carries
// the kit's event tables) served by the kit's own EventAdminService, as every service serves it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { createLogger, eventAdminGrpcService, outboxEvent, parkOutboxRow } from '@anvil/kit';
import { loadAnvilGrpc, type common } from '@anvil/proto';
import { createDb, type IdentityDb } from '../../services/identity/src/store/db.js';
import { newRunId, Teardown, testDatabase, testGrpcServer } from '../../test/support/int-testbed.js';
import { adminEvents } from '../src/commands/admin-events.js';

const MIGRATIONS = fileURLToPath(new URL('../../services/identity/prisma/migrations', import.meta.url));

process.env.ANVIL_LOG_LEVEL ??= 'silent';
const log = createLogger('admin-events-test');
const teardown = new Teardown();
let db: IdentityDb;
let env: NodeJS.ProcessEnv;
let kicks = 0;
let userClient: ReturnType<Awaited<ReturnType<typeof testGrpcServer>>['client']>;

async function deadLetter(login: string): Promise<string> {
  const row = outboxEvent('identity.user.deleted', 'anvil.identity.v1.UserDeleted', { user_id: 9, login });
  const { seq } = await db.outboxEvent.create({ data: row });
  await parkOutboxRow(db, seq, 'refused by the stream: message size exceeds maximum allowed (error 10054)');
  return row.id;
}

beforeAll(async () => {
  const database = await testDatabase(`anvil_cli_events_test_${newRunId()}`, MIGRATIONS, log);
  teardown.add(() => database.drop());
  db = createDb(database.url);
  teardown.add(() => db.$disconnect());
  const grpc = await testGrpcServer([eventAdminGrpcService(db, () => kicks++)], log);
  teardown.add(() => grpc.close());
  userClient = grpc.client(loadAnvilGrpc().anvil.common.v1.EventAdminService);
  env = { ANVIL_IDENTITY_ADDR: `127.0.0.1:${grpc.server.port}`, ANVIL_DATA_DIR: '/nonexistent', ANVIL__security__INTERNAL_TOKEN: grpc.secret };
});
afterAll(() => teardown.run());

describe('anvil admin events', () => {
  it('lists dead letters with why they were set aside', async () => {
    const id = await deadLetter('ada');
    const result = await adminEvents({ action: 'list', services: ['identity'], limit: 50 }, env);
    expect(result.code).toBe(0);
    expect(result.stdout[0]).toBe('identity: 1 dead letter');
    expect(result.stdout[1]).toContain(`${id}  identity.user.deleted`);
    expect(result.stdout[2]).toContain('refused by the stream');
  });

  it('shows one dead letter with its payload as JSON', async () => {
    const id = await deadLetter('grace');
    const result = await adminEvents({ action: 'show', services: ['identity'], id }, env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`id:       ${id}`);
    expect(JSON.parse(result.stdout.at(-1)!)).toEqual({ user_id: 9, login: 'grace' });
  });

  it('says so when no service has the dead letter asked for', async () => {
    const result = await adminEvents({ action: 'show', services: ['identity'], id: '00000000-0000-0000-0000-000000000000' }, env);
    expect(result).toMatchObject({ code: 1, stderr: ['no dead letter 00000000-0000-0000-0000-000000000000'] });
  });

  it('puts retried dead letters back into the outbox under their ids and wakes the relay', async () => {
    const id = await deadLetter('linus');
    const result = await adminEvents({ action: 'retry', services: ['identity'], ids: [id], all: false }, env);
    expect(result).toMatchObject({ code: 0, stdout: [`identity: ${id} is back in the outbox`] });
    expect(await db.outboxEvent.findUnique({ where: { id } })).toMatchObject({ sent_at: null });
    expect(await db.outboxDeadLetter.count({ where: { id } })).toBe(0);
    expect(kicks).toBeGreaterThan(0);

    const all = await adminEvents({ action: 'retry', services: ['identity'], ids: [], all: true }, env);
    expect(all.stdout).toHaveLength(2);
    expect(await db.outboxDeadLetter.count()).toBe(0);
  });

  it('reports a service it cannot reach and goes on with the others', async () => {
    const result = await adminEvents({ action: 'list', services: ['hooks', 'identity'], limit: 50 },
      { ...env, ANVIL_HOOKS_ADDR: '127.0.0.1:1' });
    expect(result.code).toBe(1);
    expect(result.stderr[0]).toMatch(/^hooks: /);
    expect(result.stdout[0]).toMatch(/^identity: /);
  });

  it('refuses every caller but the system', async () => {
    const client = userClient as unknown as { ListDeadLetters(r: common.ListDeadLettersRequestInput, o: object): Promise<unknown> };
    await expect(client.ListDeadLetters({ limit: 1 }, { caller: { userId: 1, login: 'root', isAdmin: true, restricted: false, scopes: ['all'] } }))
      .rejects.toMatchObject({ kind: 'forbidden' });
  });
});
