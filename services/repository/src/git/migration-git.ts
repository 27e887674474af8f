// The MigrationGit port: the outbound check, then a clone into the staging area that
// reaches its name only through place() (storage.ts), as repository creation does.
import type { Logger } from '@anvil/kit';
import type { MigrationGit, StagedClone } from '../domain/migrations.js';
import { listRefs } from './refs.js';
import { cloneBare, writeRemote } from './mirror-git.js';
import type { CredentialSeal } from './credential-seal.js';
import type { RemoteGuard } from './remote-guard.js';
import { directorySize, setHead, type RepositoryStorage } from './storage.js';

export interface MigrationGitOptions {
  storage: RepositoryStorage;
  guard: RemoteGuard;
  seal: CredentialSeal;
  log: Logger;
  defaultBranch: string;
  stallTimeoutMs: number;
}

export function migrationGit({ storage, guard, seal, log, defaultBranch, stallTimeoutMs }: MigrationGitOptions): MigrationGit {
  return {
    async check(address) {
      await guard.check(address);
    },
    async clone(address, mirror, label, onProgress): Promise<StagedClone> {
      // Checked again right before git runs, and git is pinned to this very address.
      const checked = await guard.check(address);
      const staged = await storage.reserveStaged();
      let placed: string | undefined;
      try {
        log.info({ repository: label, from: address.safeUrl, mirror }, 'migration started');
        const started = Date.now();
        const { head } = await cloneBare(staged, address, checked, { stallTimeoutMs, log, label, onProgress });
        const cloneMs = Date.now() - started;
        await storage.markStaged(staged);
        // A mirror keeps its source as `origin` (Gitea's mirror remote); a one-time migration keeps none.
        if (mirror) await writeRemote(staged, 'origin', address, seal, { mirror: true });
        const [refs, size] = await Promise.all([listRefs(staged), directorySize(staged)]);
        const branches = [...refs.keys()].filter((r) => r.startsWith('refs/heads/'));
        const branch = head && refs.has(`refs/heads/${head}`) ? head : branches.sort()[0]?.slice('refs/heads/'.length);
        // An empty source leaves HEAD at git's own default; the repository's is the site's.
        if (branch !== head || !branch) await setHead(staged, branch ?? defaultBranch);
        // cloneMs is git's part; ms all of it, so what the steps after the clone cost shows.
        log.info({ repository: label, refs: refs.size, bytes: size, cloneMs, ms: Date.now() - started }, 'migration fetched');
        return {
          head: branch, objectFormat: 'sha1', size, hasBranches: branches.length > 0,
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
