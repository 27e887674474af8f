// Real gateway caches holding what one served GET leaves behind: a token's credential, the
// caller's resolution of the repository and the remembered answer, with the answer shortcut
// the route table writes for it (caches/answer-shortcuts.ts).
import type { IncomingMessage } from 'node:http';
import { rememberedAuth } from '../../src/auth/authenticate.js';
import { CredentialCache, credentialKey } from '../../src/auth/credential-cache.js';
import { AnswerShortcuts, type Shortcut } from '../../src/caches/answer-shortcuts.js';
import { AnswerCache, type Answer } from '../../src/caches/answers.js';
import { RepositoryAccessCache, type ResolvedRepository } from '../../src/caches/repository-access.js';

export interface ReadServed {
  token: string;
  user: { id: number; login: string };
  owner: string;
  name: string;
  repositoryId: number;
  permission: string;
  /** The branch list's path, as the request sent it. */
  url: string;
  answer: Answer;
}

export async function rememberedRead(read: ReadServed) {
  const credentials = new CredentialCache();
  const repositories = new RepositoryAccessCache();
  const answers = new AnswerCache();
  const shortcuts = new AnswerShortcuts({ credentials, repositories, answers });

  const tokenKey = credentialKey({ kind: 'token', token: read.token });
  await credentials.get(tokenKey, async () => ({ user: { ...read.user, is_admin: false, restricted: false }, scopes: ['all'], method: 'token' }) as never);
  const auth = rememberedAuth(credentials, tokenKey)!;
  const accessKey = RepositoryAccessCache.keyOf(auth.caller, read.owner, read.name);
  const resolution = await repositories.get(accessKey, async () => ({ repository: { id: read.repositoryId }, permission: read.permission }) as ResolvedRepository);
  const subject = {
    operationId: 'repoListBranches', repositoryId: String(read.repositoryId), owner: read.owner, name: read.name,
    permission: read.permission, caller: auth.caller, url: read.url,
  };
  await answers.get(subject, async () => read.answer);

  const shortcut: Shortcut = {
    credentialKey: tokenKey, auth, accessKey, resolution, answerKey: AnswerCache.keyOf(subject),
    headers: { 'access-control-expose-headers': 'Link, X-Total-Count' }, route: '/api/v1/repos/:owner/:repo/branches',
  };
  const req = { method: 'GET', url: read.url, headers: { authorization: `token ${read.token}` } } as unknown as IncomingMessage;
  shortcuts.remember(req, read.url, shortcut);
  return { credentials, repositories, answers, shortcuts, shortcut, subject };
}
