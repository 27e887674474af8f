// Writes keep their own budget. Code running in a repository's write turn (domain/write-lock.ts)
// is marked here, so that git work on its behalf never queues behind reads: it gets cat-file
// processes of its own (catfile-cache.ts) and skips the bound on concurrent read processes
// (command.ts), which keeps a burst of reads from filling the machine with git processes
// while a writer waits for CPU.
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

/** Most git processes that reads run at once; writers are not counted. */
export const MAX_READ_PROCESSES = 4;

let running = 0;
const waiting: Array<() => void> = [];

/** Waits for a read process slot (at once for a writer); call the result when the process ended. */
export async function processSlot(): Promise<() => void> {
  if (currentWriter() !== undefined) return () => {};
  if (running >= MAX_READ_PROCESSES) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
}
