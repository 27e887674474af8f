// The side channel's plain-text refusals. Once bytes have gone out, a failure can only cut
// the stream, so the caller sees a broken download rather than a short one.
import type { ServerResponse } from 'node:http';

export function fail(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${message}\n`);
}
