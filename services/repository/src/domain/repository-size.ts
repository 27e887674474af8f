// A repository's `size` after an API write. Measuring walks the git directory (as Gitea's
// getDirectorySize does), which costs more than the write itself once loose objects pile
// up, so it runs after the answer, as Gitea updates the size from its push queue. Writes
// that land while a measurement runs coalesce into one more measurement, never a pile.
import type { RepositoryStore } from './store.js';

export class RepositorySizes {
  private readonly pending = new Map<number, { again: boolean }>();

  constructor(private readonly store: RepositoryStore, private readonly onError: (err: unknown, repositoryId: number) => void) {}

  /** Re-measures the repository in the background; `measure` answers bytes. */
  refresh(repositoryId: number, measure: () => Promise<number>): void {
    const running = this.pending.get(repositoryId);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: false };
    this.pending.set(repositoryId, state);
    void (async () => {
      try {
        do {
          state.again = false;
          const size = await measure();
          await this.store.transaction((tx) => tx.update(repositoryId, { size }));
        } while (state.again);
      } catch (err) {
        this.onError(err, repositoryId);
      } finally {
        this.pending.delete(repositoryId);
      }
    })();
  }
}
