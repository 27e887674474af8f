// The domain's GitStorage port over RepositoryStorage and the plumbing helpers.
import type { GitStorage } from '../domain/repositories.js';
import { git, runGit } from './command.js';
import { commitInitialFiles } from './refs.js';
import { directorySize, RepositoryStorage, setHead } from './storage.js';

export function gitStorage(storage: RepositoryStorage): GitStorage {
  return {
    async stage(branch, objectFormat) {
      const staged = await storage.stage(branch, objectFormat);
      let placed: string | undefined;
      return {
        async commitInitialFiles(initialBranch, files, author) {
          await commitInitialFiles(placed ?? staged, initialBranch, files, 'Initial commit\n', author);
        },
        size: () => directorySize(placed ?? staged),
        async place(owner, name) {
          placed = await storage.place(staged, owner, name);
        },
        async settle() {
          if (placed) await storage.settle(placed);
        },
        discard: () => storage.discard(staged, placed),
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
