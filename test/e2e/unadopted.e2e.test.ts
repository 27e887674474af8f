// Local adoption for site admins (Gitea's /admin/unadopted): git data pushed into the
// storage root without the API shows up as unadopted, an admin adopts it and it clones
// through the gateway like any repository, or deletes it. Others get 403; names that
// could leave the storage root are refused.
import { mkdtemp, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { Accounts } from '../support/accounts.js';
import { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e } from '../support/e2e.js';
import type { EventRecorder } from '../support/event-recorder.js';
import { cloneUrl, gitIn } from '../support/git-cli.js';
import type { RunningSystem } from '../support/system.js';

jest.setTimeout(60_000);

let e2e: E2e;
let system: RunningSystem;
let anonymous: ApiClient;
let admin: ApiClient;
let users: Accounts;
let events: EventRecorder;
let home: string;
let storageRoot: string;

beforeAll(async () => {
  e2e = await bootE2e({ prefix: 'adopt-user', gitHome: true, events: 'repository' });
  ({ system, anonymous, admin, users, recorder: events, home } = e2e);
  storageRoot = join(system.env.ANVIL_DATA_DIR!, 'repositories');
}, 180_000);

afterAll(() => e2e?.close());

/** What an administrator does by hand: `git init --bare` in the data dir, then push to it. */
async function pushBareRepository(owner: string, name: string, file: string): Promise<string> {
  const bare = join(storageRoot, owner.toLowerCase(), `${name}.git`);
  expect((await gitIn(home, ['init', '--bare', '--quiet', bare])).code).toBe(0);
  const work = await mkdtemp(join(home, 'work-'));
  expect((await gitIn(home, ['init', '--quiet', work])).code).toBe(0);
  await writeFile(join(work, 'notes.txt'), file);
  expect((await gitIn(home, ['add', 'notes.txt'], work)).code).toBe(0);
  expect((await gitIn(home, ['commit', '--quiet', '-m', 'Imported by hand'], work)).code).toBe(0);
  expect((await gitIn(home, ['push', '--quiet', bare, 'HEAD:refs/heads/main'], work)).code).toBe(0);
  return bare;
}

const exists = (path: string) => stat(path).then(() => true, () => false);

describe('unadopted repositories', () => {
  test('an admin lists git data without a repository, adopts it, and the owner clones it through the gateway', async () => {
    const { username, password, client } = await users.newUser();
    await pushBareRepository(username, 'imported', 'kept from the old server\n');

    const list = await admin.get('/admin/unadopted');
    expect(list.status).toBe(200);
    expect(list.body).toContain(`${username}/imported`);
    const filtered = await admin.get(`/admin/unadopted?pattern=${encodeURIComponent(`${username}/imp*`)}`);
    expect(filtered.body).toEqual([`${username}/imported`]);
    expect(filtered.headers.get('x-total-count')).toBe('1');
    expect((await admin.get(`/admin/unadopted?pattern=${encodeURIComponent(`${username}/nothing*`)}`)).body).toEqual([]);
    expect((await client.get(`/repos/${username}/imported`)).status).toBe(404);

    const adopted = await admin.post(`/admin/unadopted/${username}/imported`);
    expect(adopted.status).toBe(204);
    const created = await events.eventMatching((e) => e.subject === 'repository.repo.created' && e.payload.repository?.name === 'imported' && e.payload.repository?.owner_login === username);
    expect(created.payload.repository).toMatchObject({ empty: false, default_branch: 'main', private: true });

    const repo = await client.get(`/repos/${username}/imported`);
    expect(repo.status).toBe(200);
    expect(repo.body).toMatchObject({ name: 'imported', owner: { login: username }, private: true, empty: false, default_branch: 'main' });
    expect((await admin.get(`/admin/unadopted?pattern=${encodeURIComponent(username)}`)).body).toEqual([]);

    const work = await mkdtemp(join(home, 'clone-'));
    const clone = await gitIn(home, ['clone', cloneUrl(system.baseUrl, `${username}/imported.git`, username, password), 'imported'], work);
    expect(clone.code).toBe(0);
    expect(await exists(join(work, 'imported', 'notes.txt'))).toBe(true);

    // Adopting or deleting it again is a conflict: the repository exists now.
    expect((await admin.undeclared('POST', `/admin/unadopted/${username}/imported`)).status).toBe(409);
    expect((await admin.undeclared('DELETE', `/admin/unadopted/${username}/imported`)).status).toBe(409);
  });

  test('an admin deletes unadopted git data', async () => {
    const { username } = await users.newUser();
    const bare = await pushBareRepository(username, 'leftover', 'stale\n');
    expect((await admin.delete(`/admin/unadopted/${username}/leftover`)).status).toBe(204);
    expect(await exists(bare)).toBe(false);
    expect((await admin.get(`/admin/unadopted?pattern=${encodeURIComponent(username)}`)).body).toEqual([]);
    expect((await admin.undeclared('DELETE', `/admin/unadopted/${username}/leftover`)).status).toBe(404);
  });

  test('a missing owner or directory is 404', async () => {
    const { username } = await users.newUser();
    expect((await admin.post('/admin/unadopted/no-such-owner-anywhere/imported')).status).toBe(404);
    expect((await admin.post(`/admin/unadopted/${username}/never-pushed`)).status).toBe(404);
  });

  test('only site admins may list, adopt or delete (403)', async () => {
    const { username, client } = await users.newUser();
    const bare = await pushBareRepository(username, 'mine', 'mine\n');
    expect((await client.get('/admin/unadopted')).status).toBe(403);
    const adopt = await client.post(`/admin/unadopted/${username}/mine`);
    expect([adopt.status, adopt.body.message]).toEqual([403, 'user should be the site admin']);
    expect((await client.delete(`/admin/unadopted/${username}/mine`)).status).toBe(403);
    expect((await anonymous.undeclared('GET', '/admin/unadopted')).status).toBe(401);
    expect(await exists(bare)).toBe(true);
    expect((await client.get(`/repos/${username}/mine`)).status).toBe(404);
  });

  test('names with ".." are refused and touch nothing outside the storage root', async () => {
    const { username } = await users.newUser();
    await pushBareRepository(username, 'victim', 'keep me\n');
    for (const name of ['..%2Fvictim', '..%2F..%2F..%2Fetc', 'a..b', '..']) {
      const adopt = await admin.undeclared('POST', `/admin/unadopted/${username}/${name}`);
      const remove = await admin.undeclared('DELETE', `/admin/unadopted/${username}/${name}`);
      expect([name, adopt.status < 500 && adopt.status >= 400, remove.status < 500 && remove.status >= 400]).toEqual([name, true, true]);
    }
    expect((await admin.undeclared('POST', `/admin/unadopted/${username}/..%2Fvictim`)).status).toBe(422);
    expect(await exists(join(storageRoot, username.toLowerCase(), 'victim.git', 'HEAD'))).toBe(true);
    expect((await admin.get(`/admin/unadopted?pattern=${encodeURIComponent(username)}`)).body).toEqual([`${username}/victim`]);
  });
});
