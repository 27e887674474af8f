// Integration test: every committed change to what ResolveRepository reads reaches gateways
// as the repository-access hint, and every change to what a repository's answers show as the
// repository-answers hint naming it, through real PostgreSQL triggers and real NATS,
// including after the listening connection was cut.
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import pg from 'pg';
import { HINTS, subscribeHints, type EventBus } from '@anvil/kit';
import { forwardAccessHints, type AccessHintForwarder } from '../src/events/access-hints.js';
import { repositoryTestbed, type RepositoryTestbed } from './support/testbed.js';

let tb: RepositoryTestbed;
let bus: EventBus;
let forwarder: AccessHintForwarder;
let unsubscribe: () => void;
let hints = 0;
/** The payloads of the repository-access hints heard, latest last (undefined: a reconnect). */
const accessHints: Array<string | undefined> = [];
/** The payloads of the repository-answers hints heard, latest last (undefined: a reconnect). */
const answerHints: Array<string | undefined> = [];
let unsubscribeAnswers: () => void;

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Runs `change` and waits for a hint that came after it. */
async function expectHintAfter(change: () => Promise<unknown>): Promise<void> {
  const before = hints;
  await change();
  await until(() => hints > before, 'a hint');
}

async function listeningBackend(): Promise<number | undefined> {
  const admin = new pg.Client({ connectionString: tb.databaseUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'`);
    return rows[0]?.pid;
  } finally {
    await admin.end();
  }
}

beforeAll(async () => {
  tb = await repositoryTestbed('hints');
  bus = (await tb.events()).bus;
  unsubscribe = subscribeHints(bus, HINTS.repositoryAccess, (payload) => {
    hints++;
    accessHints.push(payload);
  });
  unsubscribeAnswers = subscribeHints(bus, HINTS.repositoryAnswers, (payload) => answerHints.push(payload));
  forwarder = forwardAccessHints(tb.databaseUrl, bus, tb.log);
  // Listening announces itself: whatever changed before it started went unheard.
  await until(() => hints > 0, 'the hint sent on connecting');
});

afterAll(async () => {
  unsubscribe?.();
  unsubscribeAnswers?.();
  await forwarder?.stop();
  await tb?.close();
});

describe('gateways hear of every change to what a repository resolves to', () => {
  it('a new owner, repository and collaborator each send a hint once committed', async () => {
    await expectHintAfter(() => tb.owner(1, 'alice'));
    await expectHintAfter(() => tb.owner(2, 'bob'));
    await expectHintAfter(() => tb.db.repository.create({ data: { owner_id: 1n, owner_login: 'alice', lower_name: 'app', name: 'app', default_branch: 'main' } }));
    const repo = await tb.db.repository.findFirstOrThrow({ where: { lower_name: 'app' } });
    await expectHintAfter(() => tb.db.collaboration.create({ data: { repository_id: repo.id, user_id: 2n, mode: 'write' } }));
  });

  it('revoking a collaborator and making the repository private send hints', async () => {
    await expectHintAfter(() => tb.db.collaboration.deleteMany({ where: { user_id: 2n } }));
    await expectHintAfter(() => tb.db.repository.updateMany({ where: { lower_name: 'app' }, data: { private: true } }));
  });

  it('team changes applied to the org read model send hints', async () => {
    await expectHintAfter(() => tb.db.owner.create({ data: { id: 10n, lower_name: 'acme', name: 'acme', type: 'organization', email: '' } }));
    await expectHintAfter(() => tb.db.orgTeam.create({ data: { id: 20n, org_id: 10n, name: 'devs', permission: 'write' } }));
    await expectHintAfter(() => tb.db.orgTeamMember.create({ data: { team_id: 20n, org_id: 10n, user_id: 2n } }));
    await expectHintAfter(() => tb.db.orgTeamMember.deleteMany({ where: { team_id: 20n } }));
  });

  it('a change to a repository\'s rows names that repository in the repository-answers hint', async () => {
    const repo = await tb.db.repository.findFirstOrThrow({ where: { lower_name: 'app' } });
    const answersAfter = async (change: () => Promise<unknown>): Promise<Array<string | undefined>> => {
      const before = answerHints.length;
      await change();
      await until(() => answerHints.length > before, 'a repository-answers hint');
      return answerHints.slice(before);
    };
    // A push or commit rewrites the refs' rows: the git reads' answers.
    expect(await answersAfter(() => tb.db.gitRefState.create({ data: { repository_id: repo.id } }))).toEqual([String(repo.id)]);
    expect(await answersAfter(() => tb.db.repository.update({ where: { id: repo.id }, data: { description: 'answers' } }))).toEqual([String(repo.id)]);
    // An owner's profile shows in every repository's answers.
    expect(await answersAfter(() => tb.db.owner.update({ where: { id: 2n }, data: { full_name: 'Bob' } }))).toEqual(['*']);
  });

  it('the language statistics of a commit are not announced: the head that names the commit is', async () => {
    const repo = await tb.db.repository.findFirstOrThrow({ where: { lower_name: 'app' } });
    const listener = new pg.Client({ connectionString: tb.databaseUrl });
    await listener.connect();
    try {
      const heard: string[] = [];
      listener.on('notification', (message) => heard.push(message.payload ?? ''));
      await listener.query('LISTEN repository_answers_changed');
      await tb.db.languageStats.create({ data: { repository_id: repo.id, commit_sha: 'f'.repeat(40), languages: { Go: 10 } } });
      // NOTIFY is delivered at commit, before the next statement's answer on the listener.
      await listener.query('SELECT pg_sleep(0.05)');
      expect(heard).toEqual([]);
      await tb.db.gitRefState.upsert({ where: { repository_id: repo.id }, create: { repository_id: repo.id }, update: { version: { increment: 1 } } });
      await listener.query('SELECT pg_sleep(0.05)');
      expect(heard).toEqual([String(repo.id)]);
    } finally {
      await listener.end();
    }
  });

  it('a change to one repository or its collaborators names that repository, so gateways keep every other repository resolved', async () => {
    const repo = await tb.db.repository.findFirstOrThrow({ where: { lower_name: 'app' } });
    const accessAfter = async (change: () => Promise<unknown>): Promise<Array<string | undefined>> => {
      const before = accessHints.length;
      await change();
      await until(() => accessHints.length > before, 'a repository-access hint');
      return accessHints.slice(before);
    };
    // A push or contents write moves the row's figures alone (size, updated_at, counts): the
    // id comes marked, so gateways keep the repository's resolution for the git reads' guards.
    expect(await accessAfter(() => tb.db.repository.update({ where: { id: repo.id }, data: { size: 1234n } }))).toEqual([`~${repo.id}`]);
    expect(await accessAfter(() => tb.db.repository.update({ where: { id: repo.id }, data: { num_stars: { increment: 1 }, num_open_issues: 3, language: 'Go', licenses: ['MIT'] } }))).toEqual([`~${repo.id}`]);
    // Anything a guard or a route may read is a plain change, even alongside the figures.
    expect(await accessAfter(() => tb.db.repository.update({ where: { id: repo.id }, data: { size: 99n, archived: true } }))).toEqual([String(repo.id)]);
    expect(await accessAfter(() => tb.db.repository.update({ where: { id: repo.id }, data: { empty: false, default_branch: 'trunk' } }))).toEqual([String(repo.id)]);
    await accessAfter(() => tb.db.repository.update({ where: { id: repo.id }, data: { archived: repo.archived, empty: repo.empty, default_branch: repo.default_branch } }));
    // A grant, or a repository made public, may make the name resolve for someone who was
    // told "not found" (gateways remember that too): the id comes marked.
    expect(await accessAfter(() => tb.db.collaboration.create({ data: { repository_id: repo.id, user_id: 2n, mode: 'read' } }))).toEqual([`+${repo.id}`]);
    expect(await accessAfter(() => tb.db.repository.update({ where: { id: repo.id }, data: { private: !repo.private } }))).toEqual([`+${repo.id}`]);
    expect(await accessAfter(() => tb.db.repository.update({ where: { id: repo.id }, data: { name: 'App2', lower_name: 'app2' } }))).toEqual([`+${repo.id}`]);
    await accessAfter(() => tb.db.repository.update({ where: { id: repo.id }, data: { name: repo.name, lower_name: repo.lower_name, private: repo.private } }));
    // A team's membership may change any of its organization's repositories.
    expect(await accessAfter(() => tb.db.orgTeamMember.create({ data: { team_id: 20n, org_id: 10n, user_id: 1n } }))).toEqual(['*']);
  });

  it('after its database connection is cut, the forwarder reconnects, says so, and hears changes again', async () => {
    const pid = await listeningBackend();
    expect(pid).toBeDefined();
    await expectHintAfter(async () => {
      const admin = new pg.Client({ connectionString: tb.databaseUrl });
      await admin.connect();
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await admin.end();
    });
    await until(async () => (await listeningBackend()) !== undefined, 'listening again');
    await expectHintAfter(() => tb.db.repository.updateMany({ where: { lower_name: 'app' }, data: { description: 'back' } }));
  });
});
