// The domain's GitStorage port over RepositoryStorage and the plumbing helpers.
import type { GitStorage } from '../domain/repositories.js';
import { git, runGit } from './command.js';
import { commitInitialFiles } from './refs.js';
import { directorySize, RepositoryStorage, setHead } from './storage.js';

/**
 * `afterRefChange` runs after a ref moved outside a write turn (a new repository's first
 * commit): it takes the repository's turn, whose end rewrites the refs table.
 */
export function gitStorage(storage: RepositoryStorage, afterRefChange?: (owner: string, name: string) => Promise<void>): GitStorage {
  return {
    async stage(branch, objectFormat) {
      const staged = await storage.stage(branch, objectFormat);
      let placed: { path: string; owner: string; name: string } | undefined;
      return {
        async commitInitialFiles(initialBranch, files, author) {
          await commitInitialFiles(placed?.path ?? staged, initialBranch, files, 'Initial commit\n', author);
        },
        size: () => directorySize(placed?.path ?? staged),
        async place(owner, name) {
          placed = { path: await storage.place(staged, owner, name), owner, name };
        },
        async settle() {
          if (!placed) return;
          await storage.settle(placed.path);
          // The first commit moved a ref outside a write turn: the turn's end records it.
          await afterRefChange?.(placed.owner, placed.name);
        },
        discard: () => storage.discard(staged, placed?.path),
      };
    },
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
}
