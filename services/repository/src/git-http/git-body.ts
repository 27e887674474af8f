// How the side channel hands request bodies to git and git's output to the client.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { Logger } from '@anvil/kit';
import { spawnGitInto, type GitCommand } from '../git/command.js';
import { killWithClient } from './reply.js';

/** The request body as git must read it: git gzips large upload-pack requests. */
export function requestBody(req: IncomingMessage): Readable {
  return req.headers['content-encoding'] === 'gzip' ? req.pipe(createGunzip()) : req;
}

/**
 * Answers with git's stdout written by git itself into the connection, which then closes
 * (the body is delimited by the close, so there is no chunk framing to add). A pack is
 * the one big thing this service sends: copied through this process, a 50 MB clone cost
 * it about 300 ms of CPU instead of 50, and the clone a tenth of its time on two cores
 * (`pnpm bench`, README).
 * Resolves true when git exits 0; a failure after the headers can only cut the
 * connection, which the client reports as a broken pack.
 */
export async function answerWithGitOutput(
  command: GitCommand, req: IncomingMessage, res: ServerResponse, contentType: string, log: Logger,
): Promise<boolean> {
  res.useChunkedEncodingByDefault = false;
  res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-cache' });
  res.flushHeaders();
  const socket = res.socket;
  if (!socket) return false; // the client is already gone
  // The headers must be out before git writes its first byte behind them.
  await new Promise<void>((resolve) => socket.write(Buffer.alloc(0), () => resolve()));
  if (res.destroyed) return false;
  return new Promise((resolve) => {
    const child = spawnGitInto(command, socket);
    const stderr: Buffer[] = [];
    child.stderr!.on('data', (b: Buffer) => stderr.push(b));
    const body = requestBody(req);
    body.on('error', () => child.kill('SIGKILL'));
    body.pipe(child.stdin!);
    child.stdin!.on('error', () => {}); // git may answer before reading all of it
    // A client that goes away must not leave git running (nor holding the connection).
    killWithClient(child, res);
    child.on('error', (err) => {
      log.error({ err }, 'git failed to start');
      res.destroy();
      resolve(false);
    });
    child.on('close', (code) => {
      if (code === 0) res.end();
      else {
        log.warn({ code, args: command.args, stderr: Buffer.concat(stderr).toString().slice(0, 2000) }, 'git exited with an error');
        res.destroy();
      }
      resolve(code === 0);
    });
  });
}
