// The MigrationGit port: the outbound check, then a fetch into a staged repository that
// reaches its name only through place() (storage.ts), as repository creation does.
import type { Logger } from '@anvil/kit';
import type { MigrationGit, StagedClone } from '../domain/migrations.js';
import { listRefs } from './refs.js';
import { fetchOrigin, forgetFetchHead, removeOrigin, writeOrigin } from './mirror-git.js';
import type { RemoteGuard } from './remote-guard.js';
import { directorySize, setHead, type RepositoryStorage } from './storage.js';

export interface MigrationGitOptions {
  storage: RepositoryStorage;
  guard: RemoteGuard;
  log: Logger;
  defaultBranch: string;
  stallTimeoutMs: number;
}

export function migrationGit({ storage, guard, log, defaultBranch, stallTimeoutMs }: MigrationGitOptions): MigrationGit {
  return {
    async check(address) {
      await guard.check(address);
    },
    async clone(address, mirror, label, onProgress): Promise<StagedClone> {
      // Checked again right before git runs, and git is pinned to this very address.
      const checked = await guard.check(address);
      const staged = await storage.stage(defaultBranch);
      let placed: string | undefined;
      try {
        await writeOrigin(staged, address, checked, mirror);
        log.info({ repository: label, from: address.safeUrl, mirror }, 'migration started');
        const { head } = await fetchOrigin(staged, address, checked, { stallTimeoutMs, log, label, onProgress });
        await forgetFetchHead(staged);
        if (!mirror) await removeOrigin(staged);
        const refs = await listRefs(staged);
        const hasBranches = [...refs.keys()].some((r) => r.startsWith('refs/heads/'));
        const branch = head && refs.has(`refs/heads/${head}`) ? head : [...refs.keys()].filter((r) => r.startsWith('refs/heads/')).sort()[0]?.slice('refs/heads/'.length);
        if (branch) await setHead(staged, branch);
        const size = await directorySize(staged);
        log.info({ repository: label, refs: refs.size, bytes: size }, 'migration fetched');
        return {
          head: branch, objectFormat: 'sha1', size, hasBranches,
          async place(owner, name) {
            placed = await storage.place(staged, owner, name);
          },
          async settle() {
            if (placed) await storage.settle(placed);
          },
          discard: () => storage.discard(staged, placed),
        };
      } catch (err) {
        await storage.discard(staged, placed).catch(() => undefined);
        log.warn({ repository: label, from: address.safeUrl, err: (err as Error).message }, 'migration failed');
        throw err;
      }
    },
  };
}

