// Creating a repository from templates, as a Gitea client does it: list the gitignore and
// license templates, create with auto_init + gitignores + license + readme, then clone
// with the real git and read the files. Unknown names are refused and create nothing.
import { mkdtemp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { Accounts } from '../support/accounts.js';
import { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e } from '../support/e2e.js';
import { cloneUrl, gitIn } from '../support/git-cli.js';
import type { RunningSystem } from '../support/system.js';

jest.setTimeout(60_000);

let e2e: E2e;
let system: RunningSystem;
let anonymous: ApiClient;
let users: Accounts;
let home: string;

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'tpl-user', gitHome: true });
  ({ system, anonymous, users, home } = e2e);
}, 180_000);

afterAll(() => e2e?.close());

describe('template listings', () => {
  test('lists the gitignore templates and shows one, anonymously', async () => {
    const list = await anonymous.get('/gitignore/templates');
    expect(list.status).toBe(200);
    expect(list.body).toEqual(expect.arrayContaining(['Node', 'Go', 'Python', 'Java', 'Rust', 'C', 'C++', 'macOS', 'Windows', 'VisualStudioCode', 'JetBrains']));

    const node = await anonymous.get('/gitignore/templates/Node');
    expect(node.status).toBe(200);
    expect(node.body.name).toBe('Node');
    expect(node.body.source).toContain('node_modules/');
    expect((await anonymous.get('/gitignore/templates/C++')).body.name).toBe('C++');
    expect((await anonymous.get('/gitignore/templates/Klingon')).status).toBe(404);
  });

  test('lists the licenses, preferred first, each with its URL, and shows one with its text', async () => {
    const list = await anonymous.get('/licenses');
    expect(list.status).toBe(200);
    expect(list.body.slice(0, 2)).toEqual([
      { key: 'Apache-2.0', name: 'Apache-2.0', url: `${system.baseUrl}api/v1/licenses/Apache-2.0` },
      { key: 'MIT', name: 'MIT', url: `${system.baseUrl}api/v1/licenses/MIT` },
    ]);
    expect(list.body.map((l: { key: string }) => l.key)).toContain('GPL-3.0-only');

    const mit = await anonymous.get('/licenses/MIT');
    expect(mit.status).toBe(200);
    expect(mit.body).toMatchObject({ key: 'MIT', name: 'MIT', url: `${system.baseUrl}api/v1/licenses/MIT` });
    expect(mit.body.body).toContain('Copyright (c) <year> <copyright holders>');
    expect(mit.body.implementation).toContain('LICENSE');
    expect((await anonymous.get('/licenses/NOT-A-LICENSE')).status).toBe(404);
  });
});

describe('creating a repository from templates', () => {
  test('auto_init with gitignores "Node,Go", license MIT and the Default readme: the clone holds all three', async () => {
    const { username, password, client } = await users.newUser();
    const res = await client.post('/user/repos', {
      name: 'service', description: 'A small service', auto_init: true, gitignores: 'Node,Go', license: 'MIT', readme: 'Default',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ empty: false, default_branch: 'main' });

    const work = await mkdtemp(join(home, 'clone-'));
    const clone = await gitIn(home, ['clone', cloneUrl(system.baseUrl, `${username}/service.git`, username, password), 'service'], work);
    expect(clone.code).toBe(0);
    const read = (file: string) => readFile(join(work, 'service', file), 'utf8');
    expect(await read('README.md')).toBe('# service\n\nA small service\n');
    const gitignore = await read('.gitignore');
    expect(gitignore.startsWith('# ---> Node\n')).toBe(true);
    expect(gitignore.indexOf('# ---> Go\n')).toBeGreaterThan(gitignore.indexOf('node_modules/'));
    expect(gitignore).toContain('go.work');
    const license = await read('LICENSE');
    expect(license.startsWith('MIT License\n')).toBe(true);
    expect(license).toContain(`Copyright (c) ${new Date().getFullYear()} ${username}\n`);
    const log = await gitIn(home, ['log', '--format=%s', 'HEAD'], join(work, 'service'));
    expect(log.stdout.trim()).toBe('Initial commit');
  });

  test('unknown gitignore or license names are 422 and create nothing', async () => {
    const { username, client } = await users.newUser();
    const gitignore = await client.post('/user/repos', { name: 'odd', auto_init: true, gitignores: 'Node,Klingon' });
    expect([gitignore.status, gitignore.body.message]).toEqual([422, 'gitignore template does not exist: Klingon']);
    const license = await client.post('/user/repos', { name: 'odd', auto_init: true, license: 'WTFPL-9' });
    expect([license.status, license.body.message]).toEqual([422, 'license template does not exist: WTFPL-9']);
    expect((await client.get(`/repos/${username}/odd`)).status).toBe(404);
    // The name is still free: nothing was left behind.
    expect((await client.post('/user/repos', { name: 'odd', auto_init: true, gitignores: 'Python' })).status).toBe(201);
  });

  test('an unknown readme is Gitea\'s 400', async () => {
    const { client } = await users.newUser();
    const res = await client.post('/user/repos', { name: 'fancy', auto_init: true, readme: 'Fancy' });
    expect([res.status, res.body.message]).toEqual([400, 'readme template does not exist, available templates: [Default]']);
  });

  test('an organization repository gets the templates too', async () => {
    const { username, password, client } = await users.newUser();
    const org = `tpl-org-${Date.now() % 100000}`;
    expect((await client.post('/orgs', { username: org })).status).toBe(201);
    // The org reaches repository through identity's events.
    for (let attempt = 0; attempt < 200 && (await client.get(`/orgs/${org}/repos`)).status !== 200; attempt += 1) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const res = await client.post(`/orgs/${org}/repos`, { name: 'lib', auto_init: true, gitignores: 'Rust', license: 'Apache-2.0' });
    expect(res.status).toBe(201);
    const work = await mkdtemp(join(home, 'org-'));
    expect((await gitIn(home, ['clone', cloneUrl(system.baseUrl, `${org}/lib.git`, username, password), 'lib'], work)).code).toBe(0);
    expect(await readFile(join(work, 'lib', '.gitignore'), 'utf8')).toContain('# ---> Rust\n');
    expect(await readFile(join(work, 'lib', 'LICENSE'), 'utf8')).toContain(`Copyright ${new Date().getFullYear()} ${org}`);
  });
});
