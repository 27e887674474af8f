// The answer shortcuts (caches/answer-shortcuts.ts) let a repeated GET be answered before
// express. They must never answer what the full route table would not: each rule below is
// a change that has to reach the very next read.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from '@jest/globals';
import { notFound } from '@anvil/kit';
import { rememberedAuth } from '../src/auth/authenticate.js';
import { CredentialCache } from '../src/auth/credential-cache.js';
import { AnswerShortcuts } from '../src/caches/answer-shortcuts.js';
import { AnswerCache, type Answer } from '../src/caches/answers.js';
import { RepositoryAccessCache } from '../src/caches/repository-access.js';
import { errorAnswer } from '../src/http/errors.js';
import { rememberedRead } from './support/remembered-read.js';

const TOKEN = 'a'.repeat(40);
const URL_READ = '/api/v1/repos/alice/app/branches';

function get(url: string, headers: Record<string, string> = { authorization: `token ${TOKEN}` }, method = 'GET'): IncomingMessage {
  return { method, url, headers } as unknown as IncomingMessage;
}

const branches: Answer = { status: 200, headers: { 'content-type': 'application/json;charset=utf-8' }, body: Buffer.from('[{"name":"main"}]') };

/** Real caches holding alice's token, her resolution of alice/app and one answer, as after a served read. */
const served = () => rememberedRead({
  token: TOKEN, user: { id: 5, login: 'alice' }, owner: 'alice', name: 'app', repositoryId: 1, permission: 'write', url: URL_READ, answer: branches,
});

describe('answers sent before the route table', () => {
  it('are found for the same GET with the same credential, and for nothing else', async () => {
    const { shortcuts } = await served();
    expect(shortcuts.find(get(URL_READ))?.answer).toBe(branches);
    expect(shortcuts.find(get(`${URL_READ}?page=2`))).toBeUndefined();
    expect(shortcuts.find(get(URL_READ, { authorization: `token ${'b'.repeat(40)}` }))).toBeUndefined();
    expect(shortcuts.find(get(URL_READ, {}))).toBeUndefined();
    expect(shortcuts.find(get(URL_READ, { authorization: 'Bearer' }))).toBeUndefined();
    expect(shortcuts.find(get(URL_READ, { authorization: `token ${TOKEN}` }, 'HEAD'))).toBeUndefined();
    // An admin acting as someone else is answered as that user, by the route table.
    expect(shortcuts.find(get(URL_READ, { authorization: `token ${TOKEN}`, sudo: 'bob' }))).toBeUndefined();
  });

  it('give way once the token\'s user is dropped (a token revoked, a password changed)', async () => {
    const { shortcuts, credentials } = await served();
    credentials.dropUser(5);
    expect(shortcuts.find(get(URL_READ))).toBeUndefined();
  });

  it('give way once the repository is resolved anew (an access hint, or a write to it starting)', async () => {
    const hinted = await served();
    hinted.repositories.dropRepositoryIds(['1']);
    expect(hinted.shortcuts.find(get(URL_READ))).toBeUndefined();

    const written = await served();
    written.repositories.writeStarted(RepositoryAccessCache.repositoryOf('alice', 'app'));
    expect(written.shortcuts.find(get(URL_READ))).toBeUndefined();
  });

  it('outlive a push that moved only the repository\'s figures, except the repository\'s own JSON, which shows them', async () => {
    const { shortcuts, repositories, shortcut } = await served();
    const repoJson: Answer = { status: 200, headers: { 'content-type': 'application/json;charset=utf-8' }, body: Buffer.from('{"id":1,"size":10}') };
    const repoUrl = '/api/v1/repos/alice/app';
    shortcuts.remember(get(repoUrl), repoUrl, { ...shortcut, answerKey: undefined, answer: repoJson, route: '/api/v1/repos/:owner/:repo' });
    expect(shortcuts.find(get(repoUrl))?.answer).toBe(repoJson);
    repositories.dropRepositoryIds(['~1']);
    expect(shortcuts.find(get(URL_READ))?.answer).toBe(branches);
    expect(shortcuts.find(get(repoUrl))).toBeUndefined();
  });

  it('give way once the answer is dropped (an answers hint, or a write to the repository ending)', async () => {
    const { shortcuts, answers } = await served();
    answers.dropRepositories(['1']);
    expect(shortcuts.find(get(URL_READ))).toBeUndefined();
  });

  it('wait for an answer the route table is computing again after a drop, and never for one begun before it', async () => {
    const { shortcuts, answers, credentials, subject } = await served();
    const newer: Answer = { ...branches, body: Buffer.from('[{"name":"main"},{"name":"next"}]') };
    answers.dropRepositories(['1']);
    // Nothing on its way: the route table answers.
    expect(shortcuts.find(get(URL_READ))).toBeUndefined();
    // A read that went to the route table computes it again; the next reads wait for that.
    let finish!: (answer: Answer) => void;
    const computing = answers.get(subject, () => new Promise<Answer>((resolve) => (finish = resolve)));
    const found = shortcuts.find(get(URL_READ));
    expect(found?.answer).toBeUndefined();
    finish(newer);
    expect(await found?.pending).toBe(newer);
    await computing;
    expect(shortcuts.find(get(URL_READ))?.answer).toBe(newer);

    // A computation begun before a drop is not joined (it may show the state before the write).
    answers.dropRepositories(['1']);
    void answers.get(subject, () => new Promise<Answer>(() => undefined));
    answers.dropRepositories(['1']);
    expect(shortcuts.find(get(URL_READ))).toBeUndefined();
    // Nor is any computation once the credential's grounds are gone.
    void answers.get(subject, () => new Promise<Answer>(() => undefined));
    expect(shortcuts.find(get(URL_READ))?.pending).toBeDefined();
    credentials.dropUser(5);
    expect(shortcuts.find(get(URL_READ))).toBeUndefined();
  });

  it('are not kept for an answer whose grounds are already gone', async () => {
    const { credentials, repositories, answers, shortcut } = await served();
    answers.dropAll();
    const later = new AnswerShortcuts({ credentials, repositories, answers });
    later.remember(get(URL_READ), URL_READ, shortcut);
    expect(later.size).toBe(0);
  });

  it('take no more memory than they are allowed, however long the URLs', async () => {
    const { credentials, repositories, answers, shortcut } = await served();
    const bounded = new AnswerShortcuts({ credentials, repositories, answers }, 64 * 1024);
    for (let i = 0; i < 100; i++) {
      const url = `${URL_READ}?q=${String(i).padStart(8_000, 'x')}`;
      bounded.remember(get(url), url, shortcut);
    }
    expect(bounded.takenBytes).toBeLessThanOrEqual(64 * 1024);
    expect(bounded.size).toBeGreaterThan(0);
    expect(bounded.size).toBeLessThan(8);
  });

  it('answer a stranger\'s 404 only while that "not found" is remembered', async () => {
    const credentials = new CredentialCache();
    const repositories = new RepositoryAccessCache();
    const shortcuts = new AnswerShortcuts({ credentials, repositories, answers: new AnswerCache() });
    const probe = '/api/v1/repos/alice/secret';
    const anonymous = rememberedAuth(credentials, '')!;
    const accessKey = RepositoryAccessCache.keyOf(anonymous.caller, 'alice', 'secret');
    const missing = await repositories.get(accessKey, async () => { throw notFound('repository not found'); }).catch((err: unknown) => err);
    const answer = errorAnswer(404, 'The target couldn\'t be found.', 'http://localhost/');
    shortcuts.remember(get(probe, {}), probe, { credentialKey: '', auth: anonymous, accessKey, resolution: missing as never, answer, headers: {}, route: '/api/v1/repos/:owner/:repo' });
    expect(shortcuts.find(get(probe, {}))?.answer.status).toBe(404);

    // The repository made public (a hint that names may resolve): the route table decides again.
    repositories.dropRepositoryIds(['+9']);
    expect(shortcuts.find(get(probe, {}))).toBeUndefined();
  });
});
