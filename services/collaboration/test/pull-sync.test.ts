// What a push means for one open pull (domain/pull-sync.ts), against a fake of the
// repository service's answers: the pull's own ref follows its head, and only its head.
import { outcomeOfPush, sharingCompares, type PullGitReader } from '../src/domain/pull-sync.js';

const repo = { owner: 'ada', name: 'site' };

function fakeGit(answer: { headSha: string; ahead: number; baseSha: string }) {
  const kept: Array<{ index: number; sha: string }> = [];
  const git: PullGitReader = {
    compare: async () => ({ ...answer, mergeBase: 'b'.repeat(40), mergeable: true, conflictedFiles: [], additions: 1, deletions: 0, changedFiles: 1 }),
    keepHead: async (_repo, index, sha) => void kept.push({ index, sha }),
    fetchForkHead: async () => undefined,
  };
  return { git, kept };
}

describe('a push seen by an open pull', () => {
  it('moves refs/pull/<index>/head when the head branch moved, and reports the new head', async () => {
    const { git, kept } = fakeGit({ headSha: 'new'.padEnd(40, '0'), ahead: 2, baseSha: 'c'.repeat(40) });
    const outcome = await outcomeOfPush(git, repo, { index: 7, baseBranch: 'main', headBranch: 'topic', headSha: 'old'.padEnd(40, '0') });
    expect(kept).toEqual([{ index: 7, sha: 'new'.padEnd(40, '0') }]);
    expect(outcome).toMatchObject({ kind: 'synchronized', facts: { headSha: 'new'.padEnd(40, '0') } });
  });

  it('leaves the pull\'s ref alone when only its base moved', async () => {
    const head = 'a'.repeat(40);
    const { git, kept } = fakeGit({ headSha: head, ahead: 1, baseSha: 'c'.repeat(40) });
    const outcome = await outcomeOfPush(git, repo, { index: 7, baseBranch: 'main', headBranch: 'topic', headSha: head });
    expect(kept).toEqual([]);
    expect(outcome.kind).toBe('synchronized');
  });

  it('is merged by hand once the base holds every head commit', async () => {
    const head = 'a'.repeat(40);
    const { git } = fakeGit({ headSha: head, ahead: 0, baseSha: 'c'.repeat(40) });
    expect(await outcomeOfPush(git, repo, { index: 7, baseBranch: 'main', headBranch: 'topic', headSha: head }))
      .toEqual({ kind: 'merged', headSha: head, mergeCommitSha: 'c'.repeat(40) });
  });

  it('asks the repository service once for pulls of one push that share base and head', async () => {
    const head = 'a'.repeat(40);
    const { git } = fakeGit({ headSha: head, ahead: 1, baseSha: 'c'.repeat(40) });
    let compares = 0;
    const counted: PullGitReader = { ...git, compare: (...args) => (compares++, git.compare(...args)) };
    const reader = sharingCompares(counted);
    for (const index of [1, 2, 3]) await outcomeOfPush(reader, repo, { index, baseBranch: 'main', headBranch: 'topic', headSha: head });
    await outcomeOfPush(reader, repo, { index: 4, baseBranch: 'main', headBranch: 'other', headSha: head });
    expect(compares).toBe(2);
  });
});
