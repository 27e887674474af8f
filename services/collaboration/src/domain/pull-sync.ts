// A push to a branch updates the open pull requests it concerns (Gitea's
// services/pull AddTestPullRequestTask): a pull whose head moved gets its new head, diff
// totals and mergeability (and a synchronized event); a pull whose base now contains its head
// was merged by hand and is marked merged (Gitea's manually-merged detection).
import type { PullGitFacts } from './pull-store.js';

export interface RepositoryName {
  owner: string;
  name: string;
}

/**
 * The repository service's answers for one pull, asked as the system. `Base` is the base
 * repository as that service describes it: the domain only hands it back to its caller.
 */
export interface PullGitReader<Base = unknown> {
  /** Undefined when the base or head branch no longer exists. */
  compare(repo: RepositoryName, baseBranch: string, head: string): Promise<(PullGitFacts & { ahead: number; baseSha: string }) | undefined>;
  /** Keeps refs/pull/<index>/head at the head, so the pull outlives its branch. */
  keepHead(repo: RepositoryName, index: number, sha: string): Promise<void>;
  /**
   * A pull from a fork: copies the fork's head branch into the base's refs/pull/<index>/head
   * (the repository service's FetchForkHead) and answers the base; undefined when the base,
   * the fork or the branch is gone.
   */
  fetchForkHead(baseRepositoryId: number, headRepositoryId: number, headBranch: string, index: number): Promise<{ base: Base } | undefined>;
}

/**
 * `git` with each distinct compare asked once: open pulls of one push that share their base
 * and head (their facts are the same) cost one compare between them. Meant to live for one
 * event's preparation, whose answers are all as of that push.
 */
export function sharingCompares<Base>(git: PullGitReader<Base>): PullGitReader<Base> {
  const asked = new Map<string, ReturnType<PullGitReader['compare']>>();
  return {
    ...git,
    compare(repo, baseBranch, head) {
      const key = `${repo.owner}/${repo.name}\0${baseBranch}\0${head}`;
      let answer = asked.get(key);
      if (!answer) {
        answer = git.compare(repo, baseBranch, head);
        asked.set(key, answer);
        answer.catch(() => asked.delete(key));
      }
      return answer;
    },
  };
}

export type PushOutcome =
  | { kind: 'unchanged' }
  | { kind: 'synchronized'; facts: PullGitFacts }
  | { kind: 'merged'; headSha: string; mergeCommitSha: string };

/**
 * What a push means for one open pull. A pull from a fork is compared through its
 * refs/pull/<index>/head, which the caller brought up to date (fetchForkHead) when the fork
 * was pushed; its base never has the fork's branch.
 */
export async function outcomeOfPush(git: PullGitReader, repo: RepositoryName, pull: { index: number; baseBranch: string; headBranch: string; headSha?: string; fromFork?: boolean }): Promise<PushOutcome> {
  const pullRef = `refs/pull/${pull.index}/head`;
  const facts = await git.compare(repo, pull.baseBranch, pull.fromFork ? pullRef : `refs/heads/${pull.headBranch}`);
  if (!facts) return { kind: 'unchanged' };
  // refs/pull/<index>/head moved with the stored head (this is where it moves): a push to the
  // base leaves it where it is, sparing a ref write per open pull of a busy base.
  if (!pull.fromFork && facts.headSha !== pull.headSha) await git.keepHead(repo, pull.index, facts.headSha);
  if (facts.ahead === 0) return { kind: 'merged', headSha: facts.headSha, mergeCommitSha: facts.baseSha };
  return { kind: 'synchronized', facts };
}
