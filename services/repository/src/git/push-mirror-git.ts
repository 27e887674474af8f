// The PushMirrorGit port: remotes in the repository's config, pushes through mirror-git.ts
// with the outbound guard checked and pinned before each push. Config edits take the
// repository's write turn so they never interleave with another writer's.
import type { Logger } from '@anvil/kit';
import type { PushMirrorGit } from '../domain/push-mirrors.js';
import type { RepositoryWriteLock } from '../domain/write-lock.js';
import type { CredentialSeal } from './credential-seal.js';
import { pushTo, readRemote, removeRemote, writeRemote } from './mirror-git.js';
import type { RemoteGuard } from './remote-guard.js';
import type { RepositoryStorage } from './storage.js';

export function pushMirrorGit(storage: RepositoryStorage, guard: RemoteGuard, seal: CredentialSeal, writeLock: RepositoryWriteLock, log: Logger, stallTimeoutMs: number): PushMirrorGit {
  return {
    async check(address) {
      await guard.check(address);
    },
    addRemote: (owner, name, remoteName, address) => writeLock.run(owner, name, () => writeRemote(storage.pathOf(owner, name), remoteName, address, seal)),
    removeRemote: (owner, name, remoteName) => writeLock.run(owner, name, () => removeRemote(storage.pathOf(owner, name), remoteName)),
    async push(owner, name, remoteName) {
      const gitDir = storage.pathOf(owner, name);
      const address = await readRemote(gitDir, remoteName, seal);
      const checked = await guard.check(address);
      await pushTo(gitDir, address, checked, { stallTimeoutMs, log, label: `${owner}/${name}` });
      log.info({ repository: `${owner}/${name}`, remote: remoteName }, 'push mirror synced');
    },
  };
}
