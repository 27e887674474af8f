// kill -9 of each process in turn, in the middle of a burst of writes through the API and
// git, then a restart on the same data (as `anvil start`'s supervisor does): every write
// that was acknowledged is there afterwards, and so is its event in the stream, with no
// manual step. Writes that were not acknowledged may or may not have landed.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { connect } from 'nats';
import { decodeEvent } from '@anvil/proto';
import { streamName } from '@anvil/kit';
import type { DeployableName } from '../../cli/src/processes.js';
import { bootE2e, type E2e, type Writer } from '../support/e2e.js';
import { cloneUrl, gitIn } from '../support/git-cli.js';

jest.setTimeout(300_000);

let e2e: E2e;
let writer: Writer;
let work: string;

interface Acknowledged {
  users: string[];
  repos: string[];
  /** Contents API commits: path and the commit id the answer gave. */
  files: Array<{ path: string; sha: string }>;
  /** Commits `git push` reported as pushed. */
  pushes: string[];
}

const acked: Acknowledged = { users: [], repos: [], files: [], pushes: [] };
const count = () => acked.users.length + acked.repos.length + acked.files.length + acked.pushes.length;
let serial = 0;

const git = (args: string[], cwd = work) => gitIn(e2e.home, args, cwd);

beforeAll(async () => {
  e2e = await bootE2e({ prefix: 'crash-user', gitHome: true });
  writer = await e2e.newWriter();
  expect((await writer.client.post('/user/repos', { name: 'burst', auto_init: true })).status).toBe(201);
  const dir = await mkdtemp(join(e2e.home, 'burst-'));
  const remote = cloneUrl(e2e.system.baseUrl, `${writer.username}/burst.git`, writer.username, writer.token);
  expect((await git(['clone', remote, 'work'], dir)).code).toBe(0);
  work = join(dir, 'work');
  expect((await git(['checkout', '-b', 'pushed'])).code).toBe(0);
}, 180_000);

afterAll(() => e2e?.close());

/** Writes (by their index in `writes`) that had no answer within 30 s. */
const unanswered: number[] = [];

/** One kind of write, repeated until `stopped()`; a failed one (refused, reset, 503) is simply not acknowledged. */
async function repeat(stopped: () => boolean, write: () => Promise<boolean>): Promise<void> {
  while (!stopped()) {
    // A write with no answer after 30 s (a hang detector) is counted as unanswered, never as
    // acknowledged, and reported. A push abandoned by a killed gateway while it waited for
    // its write turn used to hold that turn forever (fixed, git-http.e2e); a git push in
    // flight when a process is killed has still once gone unanswered since (README, known
    // gaps), so this reports rather than fails until that is explained.
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => {
        unanswered.push(writes.indexOf(write));
        resolve(false);
      }, 30_000);
    });
    const ok = await Promise.race([write().catch(() => false), hung]).finally(() => clearTimeout(timer));
    // After a failure give the process a moment to come back instead of spinning.
    if (!ok && !stopped()) await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const writes: Array<() => Promise<boolean>> = [
  async () => {
    const username = `crash-u${++serial}`;
    const res = await e2e.admin.undeclared('POST', '/admin/users', { username, email: `${username}@example.com`, password: `pw-${username}-pw`, must_change_password: false });
    if (res.status === 201) acked.users.push(username);
    return res.status === 201;
  },
  async () => {
    const name = `r${++serial}`;
    const res = await writer.client.undeclared('POST', '/user/repos', { name });
    if (res.status === 201) acked.repos.push(name);
    return res.status === 201;
  },
  async () => {
    const path = `files/f${++serial}.txt`;
    const res = await writer.client.as({ token: writer.token }).undeclared<{ commit: { sha: string } }>('POST', `/repos/${writer.username}/burst/contents/${path}`, {
      content: Buffer.from(`${path}\n`).toString('base64'), message: `add ${path}`, branch: 'main',
    });
    if (res.status === 201) acked.files.push({ path, sha: res.body.commit.sha });
    return res.status === 201;
  },
  async () => {
    const file = `p${++serial}.txt`;
    await writeFile(join(work, file), `${file}\n`);
    if ((await git(['add', file])).code || (await git(['commit', '-q', '-m', `push ${file}`])).code) throw new Error('local commit failed');
    const sha = (await git(['rev-parse', 'HEAD'])).stdout.trim();
    if ((await git(['push', '-q', 'origin', 'pushed'])).code !== 0) return false;
    acked.pushes.push(sha);
    return true;
  },
];

/** Resolves once `more` further writes were acknowledged (at most 60 s: a hang detector). */
async function acknowledged(more: number): Promise<void> {
  const target = count() + more;
  const deadline = Date.now() + 60_000;
  while (count() < target) {
    if (Date.now() > deadline) throw new Error(`only ${count()} of ${target} writes acknowledged`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Every event in the run's stream, decoded. */
async function streamEvents(): Promise<Array<{ subject: string; payload: any }>> {
  const nc = await connect({ servers: e2e.system.env.NATS_URL });
  try {
    const namespace = e2e.system.env.ANVIL_EVENTS_NAMESPACE!;
    const js = nc.jetstream();
    const info = await (await nc.jetstreamManager()).streams.info(streamName(namespace));
    const consumer = await js.consumers.get(streamName(namespace));
    const events: Array<{ subject: string; payload: any }> = [];
    if (info.state.messages === 0) return events;
    const messages = await consumer.fetch({ max_messages: info.state.messages, expires: 5_000 });
    for await (const m of messages) {
      const type = m.headers?.get('Anvil-Event-Type');
      if (type) events.push({ subject: m.subject.slice(namespace.length + 1), payload: decodeEvent(type, m.data) });
      if (m.info.pending === 0) break;
    }
    return events;
  } finally {
    await nc.close();
  }
}

describe('kill -9 mid-burst', () => {
  it('loses no acknowledged write and no event of one, whichever process dies', async () => {
    const victims: DeployableName[] = ['identity', 'repository', 'collaboration', 'hooks', 'gateway'];
    for (const victim of victims) {
      let stopped = false;
      const running = writes.map((write) => repeat(() => stopped, write));
      try {
        await acknowledged(4);
        await e2e.system.kill(victim);
        await e2e.system.start(victim);
        await acknowledged(4);
      } finally {
        stopped = true;
        await Promise.all(running);
      }
    }
    expect(e2e.system.crashes.map((exit) => exit.name)).toEqual(victims);
    if (unanswered.length) console.warn(`writes with no answer within 30 s (by index): ${unanswered.join(', ')}`);

    // Every acknowledged write is there.
    for (const username of acked.users) expect((await e2e.admin.get(`/users/${username}`)).status).toBe(200);
    for (const name of acked.repos) expect((await writer.client.get(`/repos/${writer.username}/${name}`)).status).toBe(200);
    for (const { path } of acked.files) expect((await writer.client.get(`/repos/${writer.username}/burst/contents/${path}?ref=main`)).status).toBe(200);
    expect((await git(['fetch', '-q', 'origin'])).code).toBe(0);
    for (const sha of acked.pushes) expect((await git(['merge-base', '--is-ancestor', sha, 'origin/pushed'])).code).toBe(0);

    // And its event reached the stream (the relays publish what the outboxes still hold).
    const missing = async () => {
      const events = await streamEvents();
      const has = (subject: string, match: (p: any) => boolean) => events.some((e) => e.subject === subject && match(e.payload));
      return [
        ...acked.users.filter((login) => !has('identity.user.created', (p) => p.user?.login === login)).map((l) => `user ${l}`),
        ...acked.repos.filter((name) => !has('repository.repo.created', (p) => p.repository?.name === name)).map((n) => `repo ${n}`),
        ...acked.files.filter(({ sha }) => !has('repository.push', (p) => p.after === sha)).map((f) => `contents ${f.path}`),
        ...acked.pushes.filter((sha) => !has('repository.push', (p) => p.after === sha)).map((s) => `push ${s}`),
      ];
    };
    const deadline = Date.now() + 15_000;
    let left = await missing();
    while (left.length && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      left = await missing();
    }
    expect(left).toEqual([]);
    // The burst did write through every path.
    expect(Object.values(acked).every((list) => list.length > 0)).toBe(true);
  });
});
