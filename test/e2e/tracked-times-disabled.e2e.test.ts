// Time tracking switched off site-wide (`[service] ENABLE_TIMETRACKING=false`), on a system
// booted with it (one boot per file): whatever a repository's own switch says, adding,
// resetting and deleting tracked time answer Gitea's 400 "time tracking disabled", an
// issue's list 404, a repository's list 400, and stopwatches 403; nothing is stored. The same
// boot sets two of `[service] DEFAULT_*`, which a new repository's tracker settings start from.
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import { bootE2e, type E2e } from '../support/e2e.js';

jest.setTimeout(120_000);

let e2e: E2e;

beforeAll(async () => {
  e2e = await bootE2e({
    prefix: 'tt-off-user',
    env: {
      ANVIL__service__ENABLE_TIMETRACKING: 'false',
      ANVIL__service__DEFAULT_ALLOW_ONLY_CONTRIBUTORS_TO_TRACK_TIME: 'false',
      ANVIL__service__DEFAULT_ENABLE_DEPENDENCIES: 'false',
    },
  });
}, 180_000);

afterAll(() => e2e?.close());

describe('[service] ENABLE_TIMETRACKING=false', () => {
  test('refuses every tracked-time change and stopwatch, and stores nothing', async () => {
    const owner = await e2e.newWriter({ scopes: ['write:repository', 'write:issue', 'write:user'] });
    const name = e2e.users.unique('off-');
    expect((await owner.client.post('/user/repos', { name })).status).toBe(201);
    const base = `/repos/${owner.username}/${name}`;
    await owner.client.post(`${base}/issues`, { title: 'No tracking here' });

    const added = await owner.client.post(`${base}/issues/1/times`, { time: 60 });
    expect([added.status, added.body.message]).toEqual([400, 'time tracking disabled']);
    expect((await owner.client.delete(`${base}/issues/1/times`)).status).toBe(400);
    expect((await owner.client.delete(`${base}/issues/1/times/1`)).status).toBe(400);
    expect((await owner.client.get(`${base}/issues/1/times`)).status).toBe(404);
    expect((await owner.client.get(`${base}/times`)).status).toBe(400);
    expect((await owner.client.post(`${base}/issues/1/stopwatch/start`)).status).toBe(403);
    expect((await owner.client.get('/user/stopwatches')).body).toEqual([]);
    expect((await owner.client.get('/user/times')).body).toEqual([]);
  });

  test('GET /settings/repository says time tracking is disabled', async () => {
    expect((await e2e.anonymous.get('/settings/repository')).body.time_tracking_disabled).toBe(true);
  });

  test('a new repository starts with the tracker settings [service] DEFAULT_* give, and PATCH still changes them', async () => {
    const owner = await e2e.newWriter({ scopes: ['write:repository', 'write:user'] });
    const name = e2e.users.unique('defaults-');
    const created = await owner.client.post('/user/repos', { name });
    expect(created.status).toBe(201);
    expect(created.body.internal_tracker).toMatchObject({ allow_only_contributors_to_track_time: false, enable_issue_dependencies: false });
    const base = `/repos/${owner.username}/${name}`;
    const edited = await owner.client.patch(base, { internal_tracker: { enable_time_tracker: true, allow_only_contributors_to_track_time: true, enable_issue_dependencies: true } });
    expect(edited.body.internal_tracker).toMatchObject({ allow_only_contributors_to_track_time: true, enable_issue_dependencies: true });
  });
});
