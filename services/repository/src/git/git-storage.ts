// The domain's GitStorage port over RepositoryStorage and the plumbing helpers.
import type { GitStorage } from '../domain/repositories.js';
import { git, runGit } from './command.js';
import { commitInitialFiles } from './refs.js';
import { RepositoryStorage, setHead } from './storage.js';

/**
 * `afterRefChange` runs after a ref moved outside a write turn (a new repository's first
 * commit): it takes the repository's turn, whose end rewrites the refs table.
 */
export function gitStorage(storage: RepositoryStorage, afterRefChange?: (owner: string, name: string) => Promise<void>): GitStorage {
  return {
    async init(owner, name, branch, objectFormat) {
      await storage.init(owner, name, branch, objectFormat);
    },
    async commitInitialFiles(owner, name, branch, files, author) {
      await commitInitialFiles(storage.pathOf(owner, name), branch, files, 'Initial commit\n', author);
      await afterRefChange?.(owner, name);
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
