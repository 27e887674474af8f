// The git plumbing pull requests need, without a work tree (git >= 2.38 for
// `merge-tree --write-tree`): merge base, divergence, a trial merge that writes a tree and no
// ref, the diff between merge base and head, and commits written with commitTree. Nothing
// here moves a ref except updatePullRef; merges land through branches.ts updateRef.
import { isValidRefName } from '@anvil/kit';
import { RefUpdateConflict } from './branches.js';
import { git, GitError, isObjectId, runGit, type GitCommand } from './command.js';
import { commitTree, type Signature } from './file-changes-git.js';
import type { FileChange, TrialMerge } from '../domain/pull-git.js';

const need = (...ids: string[]) => {
  for (const id of ids) if (!isObjectId(id)) throw new GitError([], null, `not an object id: ${id}`);
};

/** The best common ancestor of two commits; undefined for unrelated histories. */
export async function mergeBase(gitDir: string, a: string, b: string): Promise<string | undefined> {
  need(a, b);
  try {
    return (await runGit(git('merge-base', { gitDir }).oid(a).oid(b).build())).trim() || undefined;
  } catch (err) {
    if (err instanceof GitError && err.code === 1) return undefined;
    throw err;
  }
}

/**
 * Several full ref names resolved by one git process (`for-each-ref`), where `rev-parse`
 * takes one process per name: full name → object id, absent names left out. Patterns of
 * for-each-ref also match refs below a name, so only exact names are kept.
 */
export async function resolveRefs(gitDir: string, refs: readonly string[]): Promise<Map<string, string>> {
  const wanted = new Set(refs);
  const cmd = git('for-each-ref', { gitDir }).flag('--format=%(objectname) %(refname)');
  for (const ref of wanted) cmd.ref(ref);
  const found = new Map<string, string>();
  for (const line of (await runGit(cmd.build())).split('\n')) {
    const space = line.indexOf(' ');
    const name = line.slice(space + 1);
    if (space > 0 && wanted.has(name)) found.set(name, line.slice(0, space));
  }
  return found;
}

/** One ref move of a transaction: `oldSha` checked when given (all zeros: must not exist). */
export interface RefMove {
  ref: string;
  newSha: string;
  oldSha?: string;
}

/**
 * Moves several refs in one `update-ref --stdin` transaction (one git process): all move or
 * none does; throws RefUpdateConflict when a checked ref moved meanwhile.
 */
export async function updateRefs(gitDir: string, moves: readonly RefMove[]): Promise<void> {
  let stdin = 'start\n';
  for (const { ref, newSha, oldSha } of moves) {
    // Names and ids are validated: the stdin protocol reads them as nothing else.
    if (!isValidRefName(ref) || !isObjectId(newSha) || (oldSha !== undefined && !isObjectId(oldSha))) throw new RefUpdateConflict(`refused ref move of ${ref}`);
    stdin += `update ${ref} ${newSha}${oldSha !== undefined ? ` ${oldSha}` : ''}\n`;
  }
  stdin += 'prepare\ncommit\n';
  try {
    await runGit(git('update-ref', { gitDir }).flag('--stdin').build(), { stdin });
  } catch (err) {
    if (err instanceof GitError) throw new RefUpdateConflict(err.stderr.trim());
    throw err;
  }
}

/** Commits on head but not base (ahead) and on base but not head (behind). */
export async function divergence(gitDir: string, base: string, head: string): Promise<{ ahead: number; behind: number }> {
  need(base, head);
  // `<oid>...<oid>` of two validated ids is never read as an option.
  const out = await runGit(git('rev-list', { gitDir }).flag('--left-right', '--count').arg(`${base}...${head}`).build());
  const [behind, ahead] = out.trim().split(/\s+/).map(Number);
  return { ahead: ahead || 0, behind: behind || 0 };
}

/** Merges two commits in memory (`merge-tree --write-tree`): the tree and conflicting paths. */
export async function trialMerge(gitDir: string, ours: string, theirs: string): Promise<TrialMerge> {
  need(ours, theirs);
  const cmd = git('merge-tree', { gitDir }).flag('--write-tree', '--name-only', '--no-messages', '-z').oid(ours).oid(theirs).build();
  let out: string;
  try {
    // Exit 1 is "merged with conflicts": the output still holds the tree and the paths.
    out = await runGit(cmd, { answerExitCodes: [1] });
  } catch (err) {
    // Histories without a merge base (git runs with LANG=C, so its message is this one).
    if (err instanceof GitError && err.stderr.includes('refusing to merge unrelated histories')) return { tree: '', conflicts: [], unrelated: true };
    throw err;
  }
  const [tree, ...paths] = out.split('\0').filter(Boolean);
  return { tree: tree.trim(), conflicts: [...new Set(paths)] };
}

/** Files changed from `from` to `to` (renames detected), with line counts (binary: 0). */
export async function changedFilesWithStats(gitDir: string, from: string, to: string): Promise<FileChange[]> {
  need(from, to);
  const status = await runGit(git('diff', { gitDir }).flag('--name-status', '-z', '-M', '--no-color').oid(from).oid(to).build());
  const numstat = await runGit(git('diff', { gitDir }).flag('--numstat', '-z', '-M', '--no-color').oid(from).oid(to).build());
  const files: FileChange[] = [];
  const fields = status.split('\0');
  for (let i = 0; i < fields.length - 1;) {
    const code = fields[i++];
    if (!code) continue;
    if (code.startsWith('R') || code.startsWith('C')) {
      const previous = fields[i++];
      files.push({ filename: fields[i++], status: 'renamed', additions: 0, deletions: 0, previousFilename: previous });
    } else {
      const kind = code[0] === 'A' ? 'added' : code[0] === 'D' ? 'removed' : 'modified';
      files.push({ filename: fields[i++], status: kind, additions: 0, deletions: 0, previousFilename: '' });
    }
  }
  // numstat -z: "<add>\t<del>\t<path>\0" or, for a rename, "<add>\t<del>\t\0<old>\0<new>\0".
  const byName = new Map(files.map((f) => [f.filename, f]));
  const parts = numstat.split('\0');
  for (let i = 0; i < parts.length;) {
    const match = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(parts[i++].replace(/^\n/, ''));
    if (!match) continue;
    let name = match[3];
    if (name === '') {
      i++;
      name = parts[i++];
    }
    const file = byName.get(name);
    if (file) {
      file.additions = Number(match[1]) || 0;
      file.deletions = Number(match[2]) || 0;
    }
  }
  return files;
}

/** The command printing `git diff -M <from> <to>` or `git format-patch <from>..<to>` (streamed by the side channel). */
export function rangeDiffCommand(gitDir: string, from: string, to: string, type: 'diff' | 'patch'): GitCommand {
  need(from, to);
  if (type === 'patch') return git('format-patch', { gitDir }).flag('--no-signature', '--stdout', '--no-color').arg(`${from}..${to}`).build();
  return git('diff', { gitDir }).flag('-M', '--no-color', '--no-ext-diff').oid(from).oid(to).build();
}

/** `git diff -M <from> <to>` or `git format-patch <from>..<to>` text. */
export async function rangeDiff(gitDir: string, from: string, to: string, type: 'diff' | 'patch'): Promise<string> {
  return runGit(rangeDiffCommand(gitDir, from, to, type));
}

/** Commits reachable from head and not from base, oldest first, skipping merges when asked. */
export async function commitsOnHead(gitDir: string, base: string, head: string, options: { noMerges?: boolean } = {}): Promise<string[]> {
  need(base, head);
  const cmd = git('rev-list', { gitDir }).flag('--reverse', '--topo-order');
  if (options.noMerges) cmd.flag('--no-merges');
  const out = await runGit(cmd.oid(head).flag('--not').oid(base).build());
  return out.split('\n').filter(isObjectId);
}

export interface CommitHeader {
  tree: string;
  parents: string[];
  authorName: string;
  authorEmail: string;
  /** Unix seconds. */
  authorTime: number;
  message: string;
}

/** The parts of a commit a rebase copies. */
export async function readCommitHeader(gitDir: string, sha: string): Promise<CommitHeader> {
  need(sha);
  const text = await runGit(git('cat-file', { gitDir }).arg('commit').oid(sha).build());
  const end = text.indexOf('\n\n');
  const header = text.slice(0, end < 0 ? text.length : end).split('\n');
  const parents: string[] = [];
  let tree = '';
  let author = { name: '', email: '', time: 0 };
  for (const line of header) {
    if (line.startsWith('tree ')) tree = line.slice(5);
    else if (line.startsWith('parent ')) parents.push(line.slice(7));
    else if (line.startsWith('author ')) {
      const m = /^author (.*?) ?<([^>]*)> (\d+)/.exec(line);
      if (m) author = { name: m[1], email: m[2], time: Number(m[3]) };
    }
  }
  return { tree, parents, authorName: author.name, authorEmail: author.email, authorTime: author.time, message: end < 0 ? '' : text.slice(end + 2) };
}

/**
 * Replays `commit` on `onto` without a work tree: a throwaway commit with onto's tree and
 * the commit's parent as its only parent makes that parent the merge base, so
 * `merge-tree --write-tree` is exactly a cherry-pick (git 2.39 has no `--merge-base`).
 * Returns the new commit, or undefined when the commit conflicts with `onto`.
 */
export async function cherryPick(gitDir: string, commit: string, onto: string, committer: Signature): Promise<string | undefined> {
  const original = await readCommitHeader(gitDir, commit);
  if (original.parents.length !== 1) return undefined;
  const ontoHeader = await readCommitHeader(gitDir, onto);
  const stand = await commitTree(gitDir, { tree: ontoHeader.tree, parents: [original.parents[0]], message: 'rebase\n', author: committer, committer });
  const merged = await trialMerge(gitDir, stand, commit);
  if (merged.unrelated || merged.conflicts.length) return undefined;
  return commitTree(gitDir, {
    tree: merged.tree, parents: [onto], message: original.message,
    author: { name: original.authorName, email: original.authorEmail, time: original.authorTime }, committer,
  });
}

/** The tree a commit points at. */
export async function treeOf(gitDir: string, sha: string): Promise<string> {
  return (await readCommitHeader(gitDir, sha)).tree;
}
