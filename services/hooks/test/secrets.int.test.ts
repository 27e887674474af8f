// A webhook's secret and Authorization header are credentials for its receiver: stored
// encrypted (never in clear in the database), still used in clear to sign and authorize
// deliveries, and never shown back by the API. Hooks stored in clear before are sealed at start.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { hookMessage } from '../src/grpc/messages.js';
import { sealStoredSecrets, webhookStore } from '../src/store/webhooks.js';
import { hooksTestbed, type HooksTestbed, type Receiver } from './support/testbed.js';

let tb: HooksTestbed;
let receiver: Receiver;

beforeAll(async () => {
  tb = await hooksTestbed('secrets');
  await tb.consumer();
  tb.senders();
  receiver = await tb.receiver();
}, 30_000);

afterAll(() => tb?.close());

const newHook = (repoId: number, extra: { secret?: string; authorizationHeader?: string } = {}) => webhookStore(tb.db, tb.box).create({
  repoId, ownerId: 0, isSystemWebhook: false, type: 'gitea', name: '', url: receiver.url, contentType: 'json', secret: 'topsecret',
  authorizationHeader: 'Bearer receiver-token', events: ['push'], branchFilter: '', meta: {}, active: true, ...extra,
});

const stored = async (id: number) => (await tb.db.$queryRawUnsafe<Array<{ secret: string; authorization_header: string }>>(
  'SELECT secret, authorization_header FROM webhook WHERE id = $1', id))[0];

const push = (repoId: number) => ({
  repository: { id: repoId, owner_id: 7, owner_login: 'ada', name: `repo${repoId}`, default_branch: 'main' },
  ref: 'refs/heads/main', before: 'b'.repeat(40), after: 'a'.repeat(40), pusher: { id: 7, login: 'ada' }, total_commits: 0, commits: [],
});

describe('webhook secrets at rest', () => {
  it('keeps the secret and Authorization header encrypted in the database, yet signs and authorizes with them', async () => {
    const hook = await newHook(501);
    const row = await stored(hook.id);
    expect(row.secret).toMatch(/^enc:v1:/);
    expect(row.authorization_header).toMatch(/^enc:v1:/);
    expect(JSON.stringify(row)).not.toContain('topsecret');
    expect(JSON.stringify(row)).not.toContain('receiver-token');

    const before = receiver.requests.length;
    await tb.publish('repository.push', 'anvil.repository.v1.Push', push(501));
    await receiver.waitFor(before + 1);
    const request = receiver.requests[before];
    // Verified with node:crypto and the clear secret, not with the sender's code.
    expect(request.headers['x-gitea-signature']).toBe(createHmac('sha256', 'topsecret').update(request.body).digest('hex'));
    expect(request.headers.authorization).toBe('Bearer receiver-token');
  });

  it('seals again on edit; the API shows the Authorization header back, as Gitea does, never the secret', async () => {
    const hook = await newHook(502);
    const edited = await webhookStore(tb.db, tb.box).update(hook.id, { secret: 'rotated', authorizationHeader: 'Bearer next' });
    expect(edited).toMatchObject({ secret: 'rotated', authorizationHeader: 'Bearer next' });
    expect(JSON.stringify(await stored(hook.id))).not.toMatch(/rotated|Bearer next/);
    const shown = hookMessage(edited);
    expect(shown).not.toHaveProperty('secret');
    expect(shown.authorization_header).toBe('Bearer next');
    expect(JSON.stringify(shown)).not.toMatch(/rotated/);
  });

  it('seals secrets stored in clear by an earlier version, once', async () => {
    const hook = await newHook(503);
    await tb.db.$executeRawUnsafe(`UPDATE webhook SET secret = 'old-clear', authorization_header = 'Bearer old' WHERE id = $1`, hook.id);
    expect(await sealStoredSecrets(tb.db, tb.box)).toBeGreaterThanOrEqual(1);
    const row = await stored(hook.id);
    expect(row.secret).toMatch(/^enc:v1:/);
    expect(row.authorization_header).toMatch(/^enc:v1:/);
    expect(await webhookStore(tb.db, tb.box).find({ kind: 'repository', repoId: 503 }, hook.id)).toMatchObject({ secret: 'old-clear', authorizationHeader: 'Bearer old' });
    expect(await sealStoredSecrets(tb.db, tb.box)).toBe(0);
  });
});
