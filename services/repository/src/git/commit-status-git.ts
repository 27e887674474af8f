// The commit-status domain's CommitStatusGit port: resolving a revision to its commit and
// reading that commit for the `status` event, through the one command builder.
import type { CommitStatusGit } from '../domain/commit-statuses.js';
import { git, GitError, runGit } from './command.js';
import type { CommitInfo } from './refs.js';
import type { RepositoryStorage } from './storage.js';
import { resolveCommit } from './refs.js';

const FIELD = '\x1f';

/** One commit's identity and message (no file lists: Gitea's status payload has none). */
export async function readCommit(gitDir: string, sha: string): Promise<CommitInfo | undefined> {
  try {
    const out = await runGit(git('log', { gitDir }).flag('--max-count=1', `--format=%H${FIELD}%an${FIELD}%ae${FIELD}%at${FIELD}%cn${FIELD}%ce${FIELD}%ct${FIELD}%B`).oid(sha).build());
    const [id, an, ae, at, cn, ce, ct, ...body] = out.split(FIELD);
    if (!id) return undefined;
    return {
      id, authorName: an, authorEmail: ae, authorTime: Number(at), committerName: cn, committerEmail: ce, committerTime: Number(ct),
      message: body.join(FIELD).replace(/\n$/, ''), added: [], removed: [], modified: [],
    };
  } catch (err) {
    if (err instanceof GitError) return undefined;
    throw err;
  }
}

export function commitStatusGit(storage: RepositoryStorage): CommitStatusGit {
  return {
    resolveCommit: (owner, name, revision) => resolveCommit(storage.pathOf(owner, name), revision),
    readCommit: (owner, name, sha) => readCommit(storage.pathOf(owner, name), sha),
  };
}
