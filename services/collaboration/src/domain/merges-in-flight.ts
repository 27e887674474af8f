// The merges this process is performing, per repository. A merge moves the base in the
// repository service, which raises a push event, and is then recorded here (the pull marked
// merged) before it is answered. The push consumer re-checks every open pull on the pushed
// base; started while the merge was still being recorded, that pass (thousands of rows on a
// busy base) took the event loop and the database from the merge's last step and made its
// answer up to 20 ms slower (`pnpm bench`, pulls part), and it found the merged pull still
// open. So the consumer first waits for the merges of that repository that were on their way
// when its event came: only those, so a stream of merges cannot hold it back, and only for a
// bounded time, so a merge that hangs cannot either. Merges another replica performs are not
// waited for: the consumer's transaction re-reads the pulls under their locks either way.

/** How long the push consumer waits at most for a repository's merges on their way. */
export const MERGE_WAIT_MS = 5_000;

export class MergesInFlight {
  private byRepository = new Map<number, Set<Promise<void>>>();

  /** Runs `merge` as one of `repositoryId`'s merges on their way, until it ends either way. */
  async during<T>(repositoryId: number, merge: () => Promise<T>): Promise<T> {
    const running = merge();
    const ended = running.then(() => undefined, () => undefined);
    let merges = this.byRepository.get(repositoryId);
    if (!merges) this.byRepository.set(repositoryId, (merges = new Set()));
    merges.add(ended);
    try {
      return await running;
    } finally {
      merges.delete(ended);
      // Emptied, it is dropped; the repository's next merge starts a set of its own.
      if (merges.size === 0) this.byRepository.delete(repositoryId);
    }
  }

  /** Resolves once the repository's merges on their way now have ended, or after `maxWaitMs`. */
  async ended(repositoryId: number, maxWaitMs = MERGE_WAIT_MS): Promise<void> {
    const merges = this.byRepository.get(repositoryId);
    if (!merges?.size) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, maxWaitMs);
    });
    try {
      await Promise.race([Promise.all([...merges]), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
