// Every route of a repository declares what its caller needs there (Gitea's reqRepoReader /
// reqRepoWriter / reqAdmin / reqOwner), so the gateway resolves the repository and checks
// the permission once, before the handler, and a new route cannot forget it.
import { describe, expect, it } from '@jest/globals';
import { apiRoutes } from '../src/routes/index.js';
import { repoAccessRefusal } from '../src/http/repo-access.js';
import { ANONYMOUS, type Caller } from '@anvil/kit';
import type { repository } from '@anvil/proto';

const user = (isAdmin = false): Caller => ({ ...ANONYMOUS, userId: 7, login: 'someone', isAdmin });
const access = (permission: string) => ({ permission }) as repository.RepositoryAccess;

describe('repository routes', () => {
  it('declare the repository access every /repos/{owner}/{repo} route needs', () => {
    const undeclared = apiRoutes
      .filter((r) => /^\/repos\/:owner\/:repo(\/|$)/.test(r.path) && !r.repoAccess)
      .map((r) => `${r.method} ${r.path}`);
    expect(undeclared).toEqual([]);
  });

  it('declare no repository access on routes without a repository in their path', () => {
    const stray = apiRoutes.filter((r) => r.repoAccess && !/^\/repos\/:owner\/:repo(\/|$)/.test(r.path)).map((r) => `${r.method} ${r.path}`);
    expect(stray).toEqual([]);
  });
});

describe('repository access', () => {
  it('lets a caller with at least the permission through', () => {
    expect(repoAccessRefusal('write', access('write'), user())).toBeUndefined();
    expect(repoAccessRefusal('write', access('owner'), user())).toBeUndefined();
    expect(repoAccessRefusal('read', access('read'), user())).toBeUndefined();
  });

  it('refuses a caller below it with Gitea\'s message for the guard', () => {
    expect(repoAccessRefusal('write', access('read'), user())).toMatchObject({ status: 403, message: 'user should have a permission to write to a repo' });
    expect(repoAccessRefusal('admin', access('write'), user())).toMatchObject({ status: 403, message: 'user should be an owner or a collaborator with admin write of a repository' });
    expect(repoAccessRefusal('owner', access('admin'), user())).toMatchObject({ status: 403, message: 'user should be the owner of the repo' });
  });

  it('lets a site administrator through even where only the owner may act', () => {
    expect(repoAccessRefusal('owner', access('admin'), user(true))).toBeUndefined();
  });
});
