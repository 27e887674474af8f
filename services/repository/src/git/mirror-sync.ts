// One pull-mirror sync: fetch `origin` into the repository inside its write turn (so the
// ref snapshots around the fetch bracket it alone, and the read-side ref tables rewritten
// at the end of each turn see it), then record what moved exactly as a push is recorded:
// the same push, branch and tag events, with the repository's owner as the pusher (Gitea
// notifies mirror syncs as pushes by the owner).
import type { Logger } from '@anvil/kit';
import type { MigrationStore } from '../domain/migrations.js';
import { scrubSecrets } from '../domain/remote-address.js';
import type { RepositoryDeps } from '../domain/repositories.js';
import type { RepositoryWriteLock } from '../domain/write-lock.js';
import { recordPush } from '../git-http/push-recorder.js';
import type { CredentialSeal } from './credential-seal.js';
import { fetchFrom, forgetFetchHead, readRemote } from './mirror-git.js';
import { listRefs } from './refs.js';
import type { RemoteGuard } from './remote-guard.js';
import type { RepositoryStorage } from './storage.js';

export interface MirrorSyncDeps {
  store: MigrationStore;
  repositories: RepositoryDeps;
  storage: RepositoryStorage;
  guard: RemoteGuard;
  seal: CredentialSeal;
  writeLock: RepositoryWriteLock;
  log: Logger;
  stallTimeoutMs: number;
}

/** Syncs one mirror; a failure is stored on the mirror (scrubbed) and logged, never thrown. */
export async function syncMirror(deps: MirrorSyncDeps, repositoryId: number): Promise<void> {
  const record = await deps.store.findMigration(repositoryId);
  if (!record?.isMirror) return;
  const found = await deps.store.findById(repositoryId);
  if (!found) {
    await deps.store.forgetMigration(repositoryId); // the repository was deleted
    return;
  }
  const { repository, owner } = found;
  const label = `${owner.login}/${repository.name}`;
  const next = () => (record.intervalMs > 0 ? new Date(Date.now() + record.intervalMs) : null);
  let secrets: string[] = [];
  try {
    await deps.writeLock.run(owner.login, repository.name, async () => {
      const gitDir = deps.storage.pathOf(owner.login, repository.name);
      const address = await readRemote(gitDir, 'origin', deps.seal);
      secrets = address.secrets;
      const checked = await deps.guard.check(address);
      const before = await listRefs(gitDir);
      await fetchFrom(gitDir, address, checked, { stallTimeoutMs: deps.stallTimeoutMs, log: deps.log, label });
      await forgetFetchHead(gitDir);
      const after = await listRefs(gitDir);
      await recordPush({
        deps: deps.repositories, log: deps.log, gitDir, repositoryId,
        pusher: { id: owner.id, login: owner.login }, sizeOf: () => deps.storage.sizeOf(owner.login, repository.name),
      }, before, after);
    });
    await deps.store.mirrorSynced(repositoryId, { updatedAt: new Date(), nextSyncAt: next(), lastError: '' });
    deps.log.info({ repository: label }, 'mirror synced');
  } catch (err) {
    const message = scrubSecrets((err as Error).message ?? String(err), secrets);
    await deps.store.mirrorSynced(repositoryId, { updatedAt: null, nextSyncAt: next(), lastError: message }).catch(() => undefined);
    deps.log.warn({ repository: label, err: message }, 'mirror sync failed');
  }
}
