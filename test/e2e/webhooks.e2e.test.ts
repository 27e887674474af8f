// Webhook configuration through the gateway (Gitea's /repos/{o}/{r}/hooks, /orgs/{org}/hooks,
// /user/hooks, /admin/hooks): types, granular and coarse events, defaults, the secret kept
// out of replies, and who may manage which hooks.
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import { bootE2e, type E2e, type Writer } from '../support/e2e.js';

jest.setTimeout(120_000);

let e2e: E2e;
beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'wh-user' });
}, 180_000);
afterAll(() => e2e?.close());

async function ownerWithRepo(): Promise<Writer & { base: string }> {
  const owner = await e2e.newWriter();
  expect((await owner.client.post('/user/repos', { name: 'hooked' })).status).toBe(201);
  return { ...owner, base: `/repos/${owner.username}/hooked` };
}

const hookBody = (extra: Record<string, unknown> = {}) => ({
  type: 'gitea', config: { url: 'https://ci.example.com/hook', content_type: 'json', secret: 's3cret' }, active: true, ...extra,
});

describe('repository webhooks', () => {
  test('a hook created with no events gets the default push event, and its secret is never shown', async () => {
    const owner = await ownerWithRepo();
    const made = await owner.client.post(`${owner.base}/hooks`, hookBody());
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ type: 'gitea', events: ['push'], active: true, config: { url: 'https://ci.example.com/hook', content_type: 'json' } });
    expect(made.text).not.toContain('s3cret');

    const list = await owner.client.get(`${owner.base}/hooks`);
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe('1');
    expect(list.body.map((h: { id: number }) => h.id)).toEqual([made.body.id]);
    expect(list.text).not.toContain('s3cret');
    expect((await owner.client.get(`${owner.base}/hooks/${made.body.id}`)).body).toMatchObject({ id: made.body.id, events: ['push'] });
  });

  test('the coarse issues and pull_request choices select every sub-event, as before the split', async () => {
    const owner = await ownerWithRepo();
    const made = await owner.client.post(`${owner.base}/hooks`, hookBody({ events: ['issues', 'pull_request', 'create'] }));
    expect(made.status).toBe(201);
    expect(made.body.events).toEqual(expect.arrayContaining([
      'create', 'issues', 'issue_assign', 'issue_label', 'issue_milestone', 'issue_comment',
      'pull_request', 'pull_request_comment', 'pull_request_review_approved', 'pull_request_review_rejected', 'pull_request_sync',
    ]));
    const granular = await owner.client.post(`${owner.base}/hooks`, hookBody({ events: ['issue_comment', 'pull_request_review_comment'] }));
    expect(granular.body.events).toEqual(['issue_comment', 'pull_request_review_comment']);
  });

  test('edits change what is given, keep the secret out of replies and show the authorization header back', async () => {
    const owner = await ownerWithRepo();
    const made = await owner.client.post(`${owner.base}/hooks`, hookBody({ branch_filter: 'main' }));
    const edited = await owner.client.patch(`${owner.base}/hooks/${made.body.id}`, {
      config: { content_type: 'form' }, events: ['create', 'delete'], active: false, branch_filter: '{main,release/*}', authorization_header: 'Bearer abc',
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      config: { url: 'https://ci.example.com/hook', content_type: 'form' }, events: ['create', 'delete'], active: false,
      branch_filter: '{main,release/*}', authorization_header: 'Bearer abc',
    });
    // The secret is write-only; the header is shown back, as Gitea's convert.ToHook does.
    expect(edited.text).not.toContain('s3cret');
    // Without `events` the events stay; an empty list is the default, push.
    expect((await owner.client.patch(`${owner.base}/hooks/${made.body.id}`, { active: true })).body).toMatchObject({ active: true, events: ['create', 'delete'] });
    expect((await owner.client.patch(`${owner.base}/hooks/${made.body.id}`, { events: [] })).body.events).toEqual(['push']);
  });

  test('deleting a hook removes it; a hook of another repository is not found', async () => {
    const owner = await ownerWithRepo();
    const other = await ownerWithRepo();
    const made = await owner.client.post(`${owner.base}/hooks`, hookBody());
    expect((await other.client.get(`${other.base}/hooks/${made.body.id}`)).status).toBe(404);
    expect((await other.client.delete(`${other.base}/hooks/${made.body.id}`)).status).toBe(404);
    expect((await owner.client.delete(`${owner.base}/hooks/${made.body.id}`)).status).toBe(204);
    expect((await owner.client.get(`${owner.base}/hooks/${made.body.id}`)).status).toBe(404);
  });

  test.each([
    [{ type: 'gitea', config: { content_type: 'json' } }, 'Missing config option: url'],
    [{ type: 'gitea', config: { url: 'https://x.example' } }, 'Missing config option: content_type'],
    [{ type: 'gitea', config: { url: 'https://x.example', content_type: 'xml' } }, 'Invalid content type'],
    [{ type: 'gitea', config: { url: 'ftp://x.example', content_type: 'json' } }, 'Invalid url'],
    [{ type: 'gitea', config: { url: 'https://x.example', content_type: 'json' }, events: ['no_such_event'] }, 'unknown webhook event: no_such_event'],
    [{ type: 'gitea', config: { url: 'https://x.example', content_type: 'json' }, branch_filter: '{main' }, 'Invalid branch filter: {main'],
    [{ type: 'telegram', config: { url: 'https://x.example', content_type: 'json' } }, 'webhook type telegram is not supported yet'],
    [{ type: 'slack', config: { url: 'https://x.example', content_type: 'json' } }, 'Missing config option: channel'],
  ])('refuses %j with a 422 and creates nothing', async (body, message) => {
    const owner = await ownerWithRepo();
    const res = await owner.client.undeclared('POST', `${owner.base}/hooks`, body);
    expect(res.status).toBe(422);
    expect(res.message).toContain(message);
    expect((await owner.client.get(`${owner.base}/hooks`)).body).toEqual([]);
  });

  test('an unknown type is a 422', async () => {
    const owner = await ownerWithRepo();
    const res = await owner.client.undeclared('POST', `${owner.base}/hooks`, { type: 'carrier-pigeon', config: { url: 'https://x.example', content_type: 'json' } });
    expect(res.status).toBe(422);
  });

  test('only repository admins manage its hooks; a private repository stays hidden', async () => {
    const owner = await ownerWithRepo();
    const writer = await e2e.newWriter();
    expect((await owner.client.put(`${owner.base}/collaborators/${writer.username}`, { permission: 'write' })).status).toBe(204);
    expect((await writer.client.undeclared('GET', `${owner.base}/hooks`)).status).toBe(403);
    expect((await writer.client.undeclared('POST', `${owner.base}/hooks`, hookBody())).status).toBe(403);
    const admin = await e2e.newWriter();
    expect((await owner.client.put(`${owner.base}/collaborators/${admin.username}`, { permission: 'admin' })).status).toBe(204);
    expect((await admin.client.post(`${owner.base}/hooks`, hookBody())).status).toBe(201);

    expect((await owner.client.post('/user/repos', { name: 'secret-repo', private: true })).status).toBe(201);
    const stranger = await e2e.newWriter();
    expect((await stranger.client.get(`/repos/${owner.username}/secret-repo/hooks`)).status).toBe(404);
  });

  test('a token without the repository scope is refused', async () => {
    const owner = await ownerWithRepo();
    const token = await e2e.users.newToken(owner, ['read:user']);
    const res = await e2e.anonymous.as({ token }).request('GET', `${owner.base}/hooks`);
    expect(res.status).toBe(403);
  });
});

describe('organization, user and site webhooks', () => {
  test('organization owners manage its hooks; members who are not owners cannot', async () => {
    const owner = await e2e.newWriter();
    const org = e2e.users.unique('wh-org');
    expect((await owner.client.post('/orgs', { username: org })).status).toBe(201);
    const made = await owner.client.post(`/orgs/${org}/hooks`, hookBody({ events: ['repository'] }));
    expect(made.status).toBe(201);
    expect(made.body.events).toEqual(['repository']);
    expect((await owner.client.get(`/orgs/${org}/hooks`)).body).toHaveLength(1);
    expect((await owner.client.patch(`/orgs/${org}/hooks/${made.body.id}`, { active: false })).body.active).toBe(false);
    const stranger = await e2e.newWriter();
    expect((await stranger.client.undeclared('GET', `/orgs/${org}/hooks`)).status).toBe(403);
    expect((await owner.client.delete(`/orgs/${org}/hooks/${made.body.id}`)).status).toBe(204);
  });

  test('a user manages their own hooks and sees no one else\'s', async () => {
    const user = await e2e.newWriter();
    const other = await e2e.newWriter();
    const made = await user.client.post('/user/hooks', hookBody());
    expect(made.status).toBe(201);
    expect((await user.client.get('/user/hooks')).body.map((h: { id: number }) => h.id)).toEqual([made.body.id]);
    expect((await other.client.get('/user/hooks')).body).toEqual([]);
    expect((await other.client.undeclared('GET', `/user/hooks/${made.body.id}`)).status).toBe(404);
  });

  test('site admins manage system hooks; others are refused', async () => {
    const made = await e2e.admin.post('/admin/hooks', hookBody({ events: ['push', 'repository'] }));
    expect(made.status).toBe(201);
    const listed = await e2e.admin.get('/admin/hooks');
    expect(listed.body.map((h: { id: number }) => h.id)).toContain(made.body.id);
    expect((await e2e.admin.get('/admin/hooks?type=default')).body.map((h: { id: number }) => h.id)).not.toContain(made.body.id);
    expect((await e2e.admin.patch(`/admin/hooks/${made.body.id}`, { events: ['create'] })).body.events).toEqual(['create']);
    const user = await e2e.newWriter();
    expect((await user.client.undeclared('GET', '/admin/hooks')).status).toBe(403);
    expect((await e2e.admin.delete(`/admin/hooks/${made.body.id}`)).status).toBe(204);
  });
});
