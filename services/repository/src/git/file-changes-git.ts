// Writing one commit from file changes without a work tree (DESIGN.md §3): a TEMPORARY index
// (GIT_INDEX_FILE in a fresh temp directory) filled by `read-tree <parent>`, new blobs from
// `hash-object -w --stdin`, all additions and removals in one `update-index -z --index-info`
// (paths on stdin, never options), then `write-tree` and `commit-tree` (commitTree, the one
// place a commit object is written, which merges use for trees they wrote themselves). The
// branch moves separately with `update-ref <ref> <new> <old>` (git/branches.ts), so two
// writers can never lose a commit: the one whose expected old value is stale fails.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommitParts, NewCommit, WrittenCommit } from '../domain/commit-writing.js';
import { git, runGit } from './command.js';

export type { CommitParts, IndexChange, NewCommit, Signature, WrittenCommit } from '../domain/commit-writing.js';

const dateOf = (time: number) => `@${time} +0000`;

/** Writes one commit object of `parts.tree`; moves no ref. */
export async function commitTree(gitDir: string, parts: CommitParts): Promise<string> {
  const cmd = git('commit-tree', { gitDir })
    .env('GIT_AUTHOR_NAME', parts.author.name).env('GIT_AUTHOR_EMAIL', parts.author.email).env('GIT_AUTHOR_DATE', dateOf(parts.author.time))
    .env('GIT_COMMITTER_NAME', parts.committer.name).env('GIT_COMMITTER_EMAIL', parts.committer.email)
    .env('GIT_COMMITTER_DATE', dateOf(parts.committer.time))
    .flag('-F', '-');
  for (const parent of parts.parents) cmd.flag('-p').oid(parent);
  cmd.oid(parts.tree);
  return (await runGit(cmd.build(), { stdin: parts.message })).trim();
}

/** Writes the blobs, tree and commit; moves no ref. */
export async function writeCommit(gitDir: string, input: NewCommit): Promise<WrittenCommit> {
  const dir = await mkdtemp(join(tmpdir(), 'anvil-index-'));
  const index = join(dir, 'index');
  try {
    const withIndex = (cmd: ReturnType<typeof git>) => cmd.env('GIT_INDEX_FILE', index);
    if (input.parent) await runGit(withIndex(git('read-tree', { gitDir }).oid(input.parent)).build());
    const blobs = new Map<string, { sha: string; size: number }>();
    await Promise.all(input.changes.map(async (change) => {
      if ('content' in change) {
        const sha = (await runGit(git('hash-object', { gitDir }).flag('-w', '--stdin').build(), { stdin: change.content })).trim();
        blobs.set(change.path, { sha, size: change.content.length });
      }
    }));
    const zero = '0'.repeat(input.objectFormat === 'sha256' ? 64 : 40);
    const records = input.changes.map((change) => {
      if ('remove' in change) return `0 ${zero}\t${change.path}\0`;
      const sha = 'blobSha' in change ? change.blobSha : blobs.get(change.path)!.sha;
      return `${change.mode} ${sha}\t${change.path}\0`;
    });
    // Removals first: a rename's old path goes before a new path is added beside it.
    records.sort((a, b) => Number(!a.startsWith('0 ')) - Number(!b.startsWith('0 ')));
    if (records.length) await runGit(withIndex(git('update-index', { gitDir }).flag('-z', '--index-info')).build(), { stdin: records.join('') });
    const treeSha = (await runGit(withIndex(git('write-tree', { gitDir })).build())).trim();
    const commitSha = await commitTree(gitDir, {
      tree: treeSha, parents: input.parent ? [input.parent] : [], message: input.message, author: input.author, committer: input.committer,
    });
    return { commitSha, treeSha, blobs };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
