// The domain's GitStorage port over RepositoryStorage and the plumbing helpers.
import type { GitStorage, StagedRepository } from '../domain/repositories.js';
import { cloneForFork } from './fork-git.js';
import { git, runGit } from './command.js';
import type { ObjectFormat } from './object-writer.js';
import { commitInitialFiles } from './refs.js';
import { directorySize, RepositoryStorage, setHead } from './storage.js';

/**
 * `afterRefChange` runs after a ref moved outside a write turn (a new repository's first
 * commit): it takes the repository's turn, whose end rewrites the refs table. `inTurn` runs
 * work in a repository's write turn: a fork's clone reads its parent there, so it copies the
 * refs between two writes, never in the middle of a push or merge.
 */
export function gitStorage(
  storage: RepositoryStorage,
  afterRefChange?: (owner: string, name: string) => Promise<void>,
  inTurn: <T>(owner: string, name: string, work: () => Promise<T>) => Promise<T> = (_o, _n, work) => work(),
): GitStorage {
  return {
    stage: async (branch, objectFormat) => staging(await storage.stage(branch, objectFormat), objectFormat),
    stageFork: async (fromOwner, fromName, defaultBranch) =>
      staging(await inTurn(fromOwner, fromName, () => cloneForFork(storage, storage.pathOf(fromOwner, fromName), defaultBranch))),
    move: (fo, fn, to, tn) => storage.move(fo, fn, to, tn),
    remove: (owner, name) => storage.remove(owner, name),
    async setDefaultBranch(owner, name, branch) {
      await setHead(storage.pathOf(owner, name), branch);
    },
    async branchExists(owner, name, branch) {
      try {
        await runGit(git('show-ref', { gitDir: storage.pathOf(owner, name) }).flag('--verify', '--quiet').ref(`refs/heads/${branch}`).build());
        return true;
      } catch {
        return false;
      }
    },
    size: (owner, name) => storage.sizeOf(owner, name),
  };

  /**
   * A new repository in the staging area reaching its name through place(). `objectFormat`
   * when the staging made it (a fork's is its parent's, asked of git when needed).
   */
  function staging(staged: string, objectFormat?: ObjectFormat): StagedRepository {
    let placed: { path: string; owner: string; name: string } | undefined;
    return {
      async commitInitialFiles(initialBranch, files, author) {
        await commitInitialFiles(placed?.path ?? staged, initialBranch, files, 'Initial commit\n', author, objectFormat);
      },
      size: () => directorySize(placed?.path ?? staged),
      async place(owner, name) {
        placed = { path: await storage.place(staged, owner, name), owner, name };
      },
      async settle() {
        if (!placed) return;
        await storage.settle(placed.path);
        // The first commit (or a fork's clone) put refs there outside a write turn: the
        // turn's end records them.
        await afterRefChange?.(placed.owner, placed.name);
      },
      discard: () => storage.discard(staged, placed?.path),
    };
  }
}
