// Removes migrations a crash abandoned. A running clone reports its progress on its
// migration row at least every 10 s while git talks (git/mirror-git.ts), and git is stopped
// when silent for [migrations] STALL_TIMEOUT; a repository still `migrating` whose clone has
// not reported for twice that is one whose replica died mid-clone. Its row goes (the staged
// git data of a crash is cleared when that replica starts again, storage.ts), so a crash
// leaves no half repository either. One DELETE statement: replicas sweeping at once never
// remove a row twice.
import type { Logger } from '@anvil/kit';
import type { MigrationStore } from '../domain/migrations.js';

export function startMigrationSweeper(store: MigrationStore, log: Logger, silentMs: number, everyMs: number): () => void {
  const sweep = () => {
    store.removeAbandonedMigrations(new Date(Date.now() - silentMs))
      .then((ids) => { if (ids.length) log.warn({ repositories: ids }, 'removed migrations abandoned mid-clone'); })
      .catch((err: unknown) => log.warn({ err }, 'migration sweep failed'));
  };
  const timer = setInterval(sweep, everyMs);
  timer.unref();
  sweep();
  return () => clearInterval(timer);
}
