import { describe, it, expect } from '@jest/globals';
import { apiPath, matchOperation, operationById } from '../../src/contract/index.js';

const idOf = (method: string, path: string) => matchOperation(method, path)?.operation.operationId ?? null;

describe('the contract document', () => {
  it('finds an operation by its operationId, with method and path template', () => {
    const op = operationById('issueGetIssue');
    expect(op?.method).toBe('GET');
    expect(op?.path).toBe('/repos/{owner}/{repo}/issues/{index}');
    expect(operationById('noSuchOperation')).toBeUndefined();
  });

  it('matches a concrete path to its template and decodes the parameters', () => {
    expect(matchOperation('GET', '/repos/alice/x/issues/3')).toMatchObject({
      operation: { operationId: 'issueGetIssue' },
      params: { owner: 'alice', repo: 'x', index: '3' },
    });
    expect(matchOperation('get', '/users/b%C3%B6b')?.params).toEqual({ username: 'böb' });
  });

  it('prefers a literal segment over a parameter: /repos/issues/search is not repo "search" of owner "issues"', () => {
    expect(idOf('GET', '/repos/issues/search')).toBe('issueSearchIssues');
    expect(idOf('GET', '/repos/alice/search')).toBe('repoGet');
    expect(idOf('GET', '/users/search')).toBe('userSearch');
    expect(idOf('GET', '/repos/alice/x/hooks/git')).toBe('repoListGitHooks');
    expect(idOf('GET', '/repos/alice/x/hooks/4')).toBe('repoGetHook');
    expect(idOf('GET', '/repos/alice/x/issues/pinned')).toBe('repoListPinnedIssues');
    expect(idOf('GET', '/repos/alice/x/pulls/3/files')).toBe('repoGetPullRequestFiles');
    expect(idOf('GET', '/repos/alice/x/pulls/main/feature')).toBe('repoGetPullRequestByBaseHead');
  });

  it('takes the leftmost literal first, like chi: DELETE /issues/comments/9 deletes a comment', () => {
    expect(idOf('DELETE', '/repos/alice/x/issues/comments/9')).toBe('issueDeleteComment');
    expect(idOf('DELETE', '/repos/alice/x/issues/3/labels')).toBe('issueClearLabels');
  });

  it('tells the .diff/.patch form from the plain pull request, and only for diff|patch', () => {
    expect(idOf('GET', '/repos/alice/x/pulls/3.diff')).toBe('repoDownloadPullDiffOrPatch');
    expect(idOf('GET', '/repos/alice/x/pulls/3')).toBe('repoGetPullRequest');
    expect(idOf('GET', '/repos/alice/x/pulls/3.txt')).toBe('repoGetPullRequest');
    expect(matchOperation('GET', '/repos/alice/x/git/commits/abc123.patch')?.params).toMatchObject({ sha: 'abc123', diffType: 'patch' });
  });

  it('lets branch, tag and file parameters span slashes, as Gitea`s `*` routes do', () => {
    expect(matchOperation('GET', '/repos/alice/x/branches/feature/login')).toMatchObject({
      operation: { operationId: 'repoGetBranch' },
      params: { branch: 'feature/login' },
    });
    expect(matchOperation('GET', '/repos/alice/x/contents/docs/a%20b.md')?.params.filepath).toBe('docs/a b.md');
    // A pull's head as owner/repo:branch; the pull's own sub-resources still win.
    expect(matchOperation('GET', '/repos/alice/x/pulls/main/bob/x:feature/login')).toMatchObject({
      operation: { operationId: 'repoGetPullRequestByBaseHead' },
      params: { base: 'main', head: 'bob/x:feature/login' },
    });
    expect(idOf('GET', '/repos/alice/x/pulls/3/reviews/4')).toBe('repoGetPullReview');
    expect(idOf('GET', '/repos/alice/x/git/refs/heads/main')).toBe('repoListGitRefs');
    // ...but an ordinary parameter does not: a release tag is one segment.
    expect(idOf('GET', '/repos/alice/x/releases/tags/v1/extra')).toBeNull();
  });

  it('answers null for a path or method the document does not have', () => {
    expect(idOf('GET', '/repos/alice/x/nonsense')).toBeNull();
    expect(idOf('PUT', '/version')).toBeNull();
    expect(idOf('GET', '/users/')).toBeNull();
  });

  it('accepts the /api/v1 prefix and a query string', () => {
    expect(apiPath('/api/v1/repos/search?q=x')).toBe('/repos/search');
    expect(idOf('GET', '/api/v1/repos/search?q=x&limit=5')).toBe('repoSearch');
  });
});
