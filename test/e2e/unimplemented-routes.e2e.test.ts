// What a client meets on an operation of Gitea's API that Anvil does not serve yet: the 404
// a client probing for a feature expects, with a message a person can tell from "the
// repository does not exist".
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e } from '../support/e2e.js';

jest.setTimeout(90_000);

let e2e: E2e;
let anonymous: ApiClient;

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'unserved-user' });
  ({ anonymous } = e2e);
}, 180_000);

afterAll(() => e2e?.close());

describe('an operation of Gitea\'s API that Anvil does not serve yet', () => {
  test('is 404 naming the operation as Gitea\'s document writes it', async () => {
    const { username, client } = await e2e.users.newUser();
    expect((await client.post('/user/repos', { name: 'app' })).status).toBe(201);
    const releases = await client.get(`/repos/${username}/app/releases`);
    expect(releases.status).toBe(404);
    expect(releases.body).toMatchObject({ message: 'not implemented in Anvil yet: GET /repos/{owner}/{repo}/releases', errors: [] });
    const wiki = await anonymous.post(`/repos/${username}/app/wiki/new`, { title: 'x' });
    expect([wiki.status, wiki.body.message]).toEqual([404, 'not implemented in Anvil yet: POST /repos/{owner}/{repo}/wiki/new']);
  });

  test('is told apart from a repository that does not exist and from a path Gitea does not have', async () => {
    const missing = await anonymous.get('/repos/nobody-here/nothing');
    expect([missing.status, missing.body.message]).toEqual([404, 'The target couldn\'t be found.']);
    const unknown = await anonymous.undeclared('GET', '/no/such/api/path');
    expect(unknown).toMatchObject({ status: 404, message: 'The target couldn\'t be found.' });
  });
});
