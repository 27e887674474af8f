// Writes keep their own budget. Code running in a repository's write turn (write-lock.ts) is
// marked here, so that git work on its behalf never queues behind reads: it gets cat-file
// processes of its own (git/catfile-cache.ts) and skips the bound on git processes
// (git/process-slots.ts).
import { AsyncLocalStorage } from 'node:async_hooks';

const writer = new AsyncLocalStorage<string>();

/** Runs `work` as the writer of `repository` (owner/name, lower-cased). */
export function runAsWriter<T>(repository: string, work: () => Promise<T>): Promise<T> {
  return writer.run(repository, work);
}

/** The repository whose write turn the current code runs in, if any. */
export function currentWriter(): string | undefined {
  return writer.getStore();
}
