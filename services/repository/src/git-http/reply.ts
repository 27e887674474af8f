// The side channel's plain-text refusals. Once bytes have gone out, a failure can only cut
// the stream, so the caller sees a broken download rather than a short one.
import type { ChildProcess } from 'node:child_process';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Logger } from '@anvil/kit';

/**
 * Aborted when the client goes away before the response is complete. Taken as the request
 * starts: a 'close' listener added later (after waiting for a write turn) would miss a
 * client that left meanwhile, and git would then wait for a request body that never ends,
 * holding the repository's write turn.
 */
export function clientGone(res: ServerResponse): AbortSignal {
  const gone = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  return gone.signal;
}

/**
 * Kills `child` when the client goes away, or at once if it already has: a 'close' listener
 * alone misses a client that left while the request awaited something, and git would then
 * block forever writing to (or reading from) a connection nobody serves.
 */
export function killWithClient(child: ChildProcess, res: ServerResponse): void {
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  if (res.destroyed) kill();
  else res.once('close', kill);
}

export function fail(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${message}\n`);
}

/**
 * Answers 200 with `headers` and git's stdout as the body, until git exits. A client that
 * goes away kills git; git failing once bytes are out cuts the stream (a broken download).
 */
export async function streamGitOutput(res: ServerResponse, child: ChildProcess, headers: OutgoingHttpHeaders, log: Logger, what: string): Promise<void> {
  const stderr: Buffer[] = [];
  child.stderr!.on('data', (b: Buffer) => stderr.push(b));
  child.stdin!.end();
  res.writeHead(200, headers);
  child.stdout!.pipe(res);
  killWithClient(child, res);
  await new Promise<void>((resolve) => {
    child.on('error', (err) => {
      log.error({ err }, `${what} failed to start`);
      res.destroy();
      resolve();
    });
    child.on('close', (code) => {
      if (code !== 0) {
        log.warn({ code, stderr: Buffer.concat(stderr).toString().slice(0, 2000) }, `${what} exited with an error`);
        res.destroy();
      }
      resolve();
    });
  });
}
