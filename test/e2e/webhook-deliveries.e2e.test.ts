// Webhooks firing from real changes: a `git push` through the gateway reaches a real local
// receiver as Gitea's push (and create) deliveries, signed with the hook's secret; a test
// delivery sends the latest commit. The receiver is on loopback, which the system is booted
// to allow ([webhook] ALLOWED_HOST_LIST=loopback). Every gitea payload received is checked
// against the contract's definitions (test/support/payload-contract.ts): a test whose
// deliveries do not fit fails.
import { createHmac } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, jest, test } from '@jest/globals';
import { bootE2e, type E2e, type Writer } from '../support/e2e.js';
import { cloneUrl, gitIn } from '../support/git-cli.js';
import { eventually } from '../support/eventually.js';
import { checkPayload } from '../support/payload-contract.js';

jest.setTimeout(120_000);

interface Received {
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let e2e: E2e;
let server: Server;
let receiverUrl: string;
const received: Received[] = [];
/** What the contract check found wrong with the payloads received since the last test. */
let payloadProblems: string[] = [];

function checkReceived(delivery: Received): void {
  const event = delivery.headers['x-gitea-event-type'];
  if (typeof event !== 'string' || delivery.headers['content-type'] !== 'application/json') return;
  payloadProblems.push(...checkPayload(event, JSON.parse(delivery.body.toString())));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const delivery = { url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      received.push(delivery);
      checkReceived(delivery);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  e2e = await bootE2e({ prefix: 'whd-user', gitHome: true, env: { ANVIL__webhook__ALLOWED_HOST_LIST: 'loopback', ANVIL__webhook__RETRY_BACKOFF_MS: '100' } });
}, 180_000);

afterEach(() => {
  const problems = payloadProblems;
  payloadProblems = [];
  expect(problems).toEqual([]);
});

afterAll(async () => {
  await e2e?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

/** The requests that arrived at `path`, once there are `count` of them. */
async function deliveriesTo(path: string, count: number): Promise<Received[]> {
  for (;;) {
    const mine = received.filter((r) => r.url === path);
    if (mine.length >= count) return mine;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function repoWithHook(owner: Writer, name: string, events: string[]) {
  expect((await owner.client.post('/user/repos', { name })).status).toBe(201);
  const path = `/${owner.username}/${name}`;
  const hook = await owner.client.post(`/repos/${owner.username}/${name}/hooks`, {
    type: 'gitea', active: true, events, config: { url: `${receiverUrl}${path}`, content_type: 'json', secret: 'e2e-secret' },
  });
  expect(hook.status).toBe(201);
  return { path, hookId: hook.body.id as number, base: `/repos/${owner.username}/${name}` };
}

async function pushCommit(owner: Writer, name: string, message: string): Promise<string> {
  const git = (args: string[], cwd: string) => gitIn(e2e.home, args, cwd);
  const work = await mkdtemp(join(e2e.home, `${name}-`));
  expect((await git(['init', '.'], work)).code).toBe(0);
  await writeFile(join(work, 'README.md'), `# ${name}\n`);
  expect((await git(['add', 'README.md'], work)).code).toBe(0);
  expect((await git(['commit', '-m', message], work)).code).toBe(0);
  const sha = (await git(['rev-parse', 'HEAD'], work)).stdout.trim();
  const remote = cloneUrl(e2e.system.baseUrl, `${owner.username}/${name}.git`, owner.username, owner.token);
  expect((await git(['push', remote, 'HEAD:refs/heads/main'], work)).code).toBe(0);
  return sha;
}

const signatureOf = (body: Buffer) => createHmac('sha256', 'e2e-secret').update(body).digest('hex');

describe('webhook deliveries', () => {
  test('a git push fires push and create deliveries with Gitea\'s headers and payload', async () => {
    const owner = await e2e.newWriter();
    const { path } = await repoWithHook(owner, 'pushed', ['push', 'create']);
    const sha = await pushCommit(owner, 'pushed', 'First commit');

    const deliveries = await deliveriesTo(path, 2);
    const push = deliveries.find((d) => d.headers['x-gitea-event'] === 'push')!;
    const create = deliveries.find((d) => d.headers['x-gitea-event'] === 'create')!;
    expect(push.headers).toMatchObject({
      'x-gitea-event-type': 'push', 'x-github-event': 'push', 'x-gogs-event': 'push', 'content-type': 'application/json',
      'x-gitea-signature': signatureOf(push.body), 'x-hub-signature-256': `sha256=${signatureOf(push.body)}`,
    });
    expect(push.headers['x-gitea-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    const payload = JSON.parse(push.body.toString());
    expect(payload).toMatchObject({
      ref: 'refs/heads/main', before: '0'.repeat(40), after: sha, total_commits: 1,
      head_commit: { id: sha, message: 'First commit\n' },
      pusher: { login: owner.username }, sender: { login: owner.username },
      repository: {
        name: 'pushed', full_name: `${owner.username}/pushed`, owner: { login: owner.username },
        // Gitea's notifier shows a push's repository with the owner's permission.
        permissions: { admin: true, push: true, pull: true },
      },
    });
    // The sender is the user identity describes, not a login alone.
    expect(payload.sender.created).not.toBe('0001-01-01T00:00:00Z');
    expect(payload.sender.avatar_url).toMatch(/avatars\//);
    expect(payload.commits.map((c: { id: string }) => c.id)).toEqual([sha]);
    expect(JSON.parse(create.body.toString())).toMatchObject({ ref: 'main', ref_type: 'branch', sha });
  });

  test('a hook that chose other events is not called for a push', async () => {
    const owner = await e2e.newWriter();
    const quiet = await repoWithHook(owner, 'quiet', ['release']);
    const loud = await repoWithHook(owner, 'loud', ['push']);
    await pushCommit(owner, 'quiet', 'Quiet commit');
    await pushCommit(owner, 'loud', 'Loud commit');
    // Events are consumed in order: once the later push arrived, the earlier one was decided.
    await deliveriesTo(loud.path, 1);
    expect(received.filter((r) => r.url === quiet.path)).toHaveLength(0);
  });

  test('forking a repository fires a fork delivery on it with Gitea\'s ForkPayload', async () => {
    const owner = await e2e.newWriter();
    const forker = await e2e.newWriter();
    const { path, base } = await repoWithHook(owner, 'forked-here', ['fork']);
    expect((await forker.client.post(`${base}/forks`, {})).status).toBe(202);
    const [delivery] = await deliveriesTo(path, 1);
    expect(delivery.headers['x-gitea-event']).toBe('fork');
    expect(JSON.parse(delivery.body.toString('utf8'))).toMatchObject({
      forkee: { full_name: `${owner.username}/forked-here`, fork: false, forks_count: 1 },
      repository: {
        full_name: `${forker.username}/forked-here`, fork: true, permissions: { admin: true },
        parent: { full_name: `${owner.username}/forked-here`, owner: { login: owner.username } },
      },
      sender: { login: forker.username },
    });
  });

  test('a test delivery sends a push of the latest commit, whatever events the hook chose', async () => {
    const owner = await e2e.newWriter();
    const { path, hookId, base } = await repoWithHook(owner, 'tested', ['release']);
    const sha = await pushCommit(owner, 'tested', 'Latest commit');
    const res = await owner.client.post(`${base}/hooks/${hookId}/tests`);
    expect(res.status).toBe(204);
    const [delivery] = await deliveriesTo(path, 1);
    expect(delivery.headers['x-gitea-event']).toBe('push');
    expect(delivery.headers['x-gitea-signature']).toBe(signatureOf(delivery.body));
    expect(JSON.parse(delivery.body.toString())).toMatchObject({
      ref: 'refs/heads/main', after: sha, head_commit: { id: sha, message: 'Latest commit\n' }, pusher: { login: owner.username },
    });
  });

  test('testing a hook of another repository is not found', async () => {
    const owner = await e2e.newWriter();
    const other = await e2e.newWriter();
    const { hookId } = await repoWithHook(owner, 'mine', ['push']);
    expect((await other.client.post('/user/repos', { name: 'theirs' })).status).toBe(201);
    expect((await other.client.post(`/repos/${other.username}/theirs/hooks/${hookId}/tests`)).status).toBe(404);
  });
});

describe('issue and pull request deliveries', () => {
  /** The delivery at `path` whose X-Gitea-Event-Type is `type`, once it arrived. */
  async function deliveryOf(path: string, type: string, action?: string): Promise<{ headers: IncomingHttpHeaders; payload: Record<string, any> }> {
    for (;;) {
      const found = received.find((r) => r.url === path && r.headers['x-gitea-event-type'] === type
        && (action === undefined || JSON.parse(r.body.toString()).action === action));
      if (found) {
        // Verified with node:crypto and the hook's secret, not with the sender's code.
        expect(found.headers['x-gitea-signature']).toBe(signatureOf(found.body));
        return { headers: found.headers, payload: JSON.parse(found.body.toString()) };
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  test('opening, commenting on, labelling and closing an issue fire Gitea\'s issues, issue_comment and issue_label deliveries', async () => {
    const owner = await e2e.newWriter();
    // The coarse `issues` choice covers every issue sub-event.
    const { path, base } = await repoWithHook(owner, 'tracked', ['issues']);
    const issue = await owner.client.post(`${base}/issues`, { title: 'It breaks', body: 'Steps to reproduce' });
    expect(issue.status).toBe(201);
    expect((await owner.client.post(`${base}/issues/${issue.body.number}/comments`, { body: 'Me too' })).status).toBe(201);
    const label = await owner.client.post(`${base}/labels`, { name: 'bug', color: '#ee0701' });
    expect(label.status).toBe(201);
    expect((await owner.client.post(`${base}/issues/${issue.body.number}/labels`, { labels: [label.body.id] })).status).toBe(200);
    expect((await owner.client.patch(`${base}/issues/${issue.body.number}`, { state: 'closed' })).status).toBe(201);

    const opened = await deliveryOf(path, 'issues', 'opened');
    expect(opened.headers['x-gitea-event']).toBe('issues');
    expect(opened.payload).toMatchObject({
      action: 'opened', number: issue.body.number, issue: { id: issue.body.id, title: 'It breaks', body: 'Steps to reproduce', state: 'open' },
      repository: { full_name: `${owner.username}/tracked` }, sender: { login: owner.username },
    });
    const commented = await deliveryOf(path, 'issue_comment', 'created');
    expect(commented.headers['x-gitea-event']).toBe('issue_comment');
    expect(commented.payload).toMatchObject({ action: 'created', is_pull: false, comment: { body: 'Me too' }, issue: { number: issue.body.number } });
    const labelled = await deliveryOf(path, 'issue_label', 'label_updated');
    expect(labelled.headers['x-gitea-event']).toBe('issues');
    expect(labelled.payload.issue.labels).toEqual([expect.objectContaining({ name: 'bug' })]);
    expect((await deliveryOf(path, 'issues', 'closed')).payload.issue.state).toBe('closed');
  });

  test('opening a pull request and commenting on it fire pull_request and pull_request_comment deliveries', async () => {
    const owner = await e2e.newWriter();
    const { path, base } = await repoWithHook(owner, 'pulled', ['pull_request']);
    await pushCommit(owner, 'pulled', 'Base commit');
    const file = await owner.client.post(`${base}/contents/feature.txt`, {
      content: Buffer.from('a feature\n').toString('base64'), message: 'Add a feature', branch: 'main', new_branch: 'feature',
    });
    expect(file.status).toBe(201);
    const pull = await owner.client.post(`${base}/pulls`, { head: 'feature', base: 'main', title: 'Add a feature', body: 'Please' });
    expect(pull.status).toBe(201);
    expect((await owner.client.post(`${base}/issues/${pull.body.number}/comments`, { body: 'Ready' })).status).toBe(201);

    const opened = await deliveryOf(path, 'pull_request', 'opened');
    expect(opened.headers['x-gitea-event']).toBe('pull_request');
    expect(opened.payload).toMatchObject({
      action: 'opened', number: pull.body.number, requested_reviewer: null, review: null,
      pull_request: { number: pull.body.number, title: 'Add a feature', body: 'Please', state: 'open', base: { ref: 'main' }, head: { ref: 'feature' } },
      repository: { full_name: `${owner.username}/pulled` }, sender: { login: owner.username },
    });
    const commented = await deliveryOf(path, 'pull_request_comment', 'created');
    expect(commented.headers['x-gitea-event']).toBe('issue_comment');
    expect(commented.payload).toMatchObject({ action: 'created', is_pull: true, comment: { body: 'Ready' }, issue: { pull_request: { merged: false } } });
  });

  test('a pull request from a fork names the fork as its head repository, so CI can clone the head from it, until the fork is deleted', async () => {
    const owner = await e2e.newWriter();
    const contributor = await e2e.newWriter();
    const { path, base } = await repoWithHook(owner, 'contributed', ['pull_request']);
    await pushCommit(owner, 'contributed', 'Base commit');
    const fork = await contributor.client.post(`${base}/forks`, {});
    expect(fork.status).toBe(202);
    const forkPath = `/repos/${contributor.username}/${fork.body.name}`;
    const topic = await contributor.client.post(`${forkPath}/contents/fix.txt`, {
      content: Buffer.from('a fix\n').toString('base64'), message: 'Fix it', new_branch: 'topic',
    });
    expect(topic.status).toBe(201);
    const pull = await contributor.client.post(`${base}/pulls`, { head: `${contributor.username}:topic`, base: 'main', title: 'A fix from my fork' });
    expect(pull.status).toBe(201);

    const opened = await deliveryOf(path, 'pull_request', 'opened');
    expect(opened.payload.pull_request.head).toMatchObject({
      ref: 'topic', sha: topic.body.commit.sha, label: `${contributor.username}:topic`, repo_id: fork.body.id,
      repo: {
        id: fork.body.id, full_name: `${contributor.username}/${fork.body.name}`, fork: true, clone_url: fork.body.clone_url,
        owner: { login: contributor.username }, parent: { full_name: `${owner.username}/contributed` },
      },
    });
    expect(opened.payload.pull_request.base).toMatchObject({ ref: 'main', repo: { full_name: `${owner.username}/contributed` } });

    /** The pull's head in the delivery of a title edit, edited until `check` holds. */
    let edits = 0;
    const headOnceEdited = (check: (head: Record<string, any>) => boolean, what: string) => eventually(async () => {
      const title = `A fix, edited ${edits++}`;
      expect((await owner.client.patch(`${base}/pulls/${pull.body.number}`, { title })).status).toBe(201);
      for (;;) {
        const edited = received.find((r) => r.url === path && JSON.parse(r.body.toString()).pull_request?.title === title);
        if (edited) return JSON.parse(edited.body.toString()).pull_request.head as Record<string, any>;
        await new Promise((r) => setTimeout(r, 50));
      }
    }, check, what);

    // The fork renamed shows renamed (a moment later: its update event is consumed).
    expect((await contributor.client.patch(forkPath, { name: 'renamed-fork' })).status).toBe(200);
    await headOnceEdited((h) => h.repo?.full_name === `${contributor.username}/renamed-fork`, 'a delivery with the renamed fork');

    // Once the fork is gone, the deliveries keep the head's ref and sha and show no
    // repository, as Gitea's do.
    expect((await contributor.client.delete(`/repos/${contributor.username}/renamed-fork`)).status).toBe(204);
    const head = await headOnceEdited((h) => h.repo === null, 'a delivery without the deleted fork');
    expect(head).toMatchObject({ ref: 'topic', sha: topic.body.commit.sha, repo_id: -1, repo: null });
  });
});

describe('the deliveries API', () => {
  test('lists a hook\'s deliveries most recent first, paged, and shows one with its request and response', async () => {
    const owner = await e2e.newWriter();
    const { path, hookId, base } = await repoWithHook(owner, 'history', ['push']);
    for (let n = 0; n < 3; n++) expect((await owner.client.post(`${base}/hooks/${hookId}/tests`)).status).toBe(204);
    await deliveriesTo(path, 3);
    const sent = received.filter((r) => r.url === path).map((r) => r.headers['x-gitea-delivery']);

    let list = await owner.client.get(`${base}/hooks/${hookId}/deliveries?limit=2`);
    for (let tries = 0; list.body.some((d: { status: string }) => d.status === 'pending') && tries < 100; tries++) {
      await new Promise((r) => setTimeout(r, 50));
      list = await owner.client.get(`${base}/hooks/${hookId}/deliveries?limit=2`);
    }
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe('3');
    expect(list.headers.get('link')).toContain('rel="next"');
    expect(list.body.map((d: { uuid: string }) => d.uuid)).toEqual([sent[2], sent[1]]);
    expect(list.body[0]).toMatchObject({ event: 'push', event_type: 'push', status: 'delivered', attempts: 1, response: { status: 200 } });
    expect(list.body[0].request.body).toBeUndefined();

    const one = await owner.client.get(`${base}/hooks/${hookId}/deliveries/${sent[0]}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      uuid: sent[0], status: 'delivered', request: { url: `${receiverUrl}${path}`, http_method: 'POST', headers: { 'x-gitea-event': 'push' } },
      response: { status: 200, body: 'ok' },
    });
    expect(JSON.parse(one.body.request.body)).toMatchObject({ ref: 'refs/heads/main' });
  });

  test('redelivers a delivery with the same id and body', async () => {
    const owner = await e2e.newWriter();
    const { path, hookId, base } = await repoWithHook(owner, 'again', ['push']);
    expect((await owner.client.post(`${base}/hooks/${hookId}/tests`)).status).toBe(204);
    const [first] = await deliveriesTo(path, 1);
    const uuid = String(first.headers['x-gitea-delivery']);
    let current = await owner.client.get(`${base}/hooks/${hookId}/deliveries/${uuid}`);
    while (current.body.status === 'pending') current = await owner.client.get(`${base}/hooks/${hookId}/deliveries/${uuid}`);
    const again = await owner.client.post(`${base}/hooks/${hookId}/deliveries/${uuid}/attempts`);
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ uuid, status: 'pending' });
    const [, second] = await deliveriesTo(path, 2);
    expect(second.headers['x-gitea-delivery']).toBe(uuid);
    expect(second.body.equals(first.body)).toBe(true);
  });

  test('a delivery is only reached through its own hook; a stranger sees none', async () => {
    const owner = await e2e.newWriter();
    const { path, hookId, base } = await repoWithHook(owner, 'guarded', ['push']);
    const other = await repoWithHook(owner, 'guarded2', ['push']);
    expect((await owner.client.post(`${base}/hooks/${hookId}/tests`)).status).toBe(204);
    const [first] = await deliveriesTo(path, 1);
    const uuid = String(first.headers['x-gitea-delivery']);
    expect((await owner.client.get(`${other.base}/hooks/${other.hookId}/deliveries/${uuid}`)).status).toBe(404);
    expect((await owner.client.get(`${base}/hooks/${hookId}/deliveries/not-a-uuid`)).status).toBe(404);
    const stranger = await e2e.newWriter();
    expect((await stranger.client.undeclared('GET', `${base}/hooks/${hookId}/deliveries`)).status).toBe(403);
  });

  test('organization hooks fire for the organization\'s repositories and list their deliveries', async () => {
    const owner = await e2e.newWriter();
    const org = e2e.users.unique('whd-org');
    expect((await owner.client.post('/orgs', { username: org })).status).toBe(201);
    const path = `/org/${org}`;
    const hook = await owner.client.post(`/orgs/${org}/hooks`, { type: 'gitea', active: true, events: ['repository'], config: { url: `${receiverUrl}${path}`, content_type: 'json' } });
    expect(hook.status).toBe(201);
    expect((await owner.client.post(`/orgs/${org}/repos`, { name: 'fresh' })).status).toBe(201);
    const [delivery] = await deliveriesTo(path, 1);
    expect(delivery.headers['x-gitea-event']).toBe('repository');
    expect(JSON.parse(delivery.body.toString())).toMatchObject({ action: 'created', repository: { full_name: `${org}/fresh` }, organization: { login: org }, sender: { login: owner.username } });
    const list = await owner.client.get(`/orgs/${org}/hooks/${hook.body.id}/deliveries`);
    expect(list.body).toHaveLength(1);
  });

  test('the served OpenAPI document declares the deliveries operations', async () => {
    const document = await (await fetch(`${e2e.system.baseUrl}swagger.v1.json`)).json() as { paths: Record<string, Record<string, { operationId: string }>>; definitions: Record<string, unknown> };
    const ids = Object.values(document.paths).flatMap((item) => Object.values(item).map((o) => o.operationId));
    for (const prefix of ['repo', 'org', 'user', 'admin']) {
      expect(ids).toEqual(expect.arrayContaining([`${prefix}ListHookDeliveries`, `${prefix}GetHookDelivery`, `${prefix}RedeliverHookDelivery`]));
    }
    expect(document.definitions.AnvilHookDelivery).toBeDefined();
  });
});
