// A real git server on loopback for migration and mirror suites: `git http-backend` (git's
// own smart HTTP CGI) behind a small node:http server, serving bare repositories under a
// temporary root. Besides plain serving it can demand Basic credentials for a path prefix,
// answer a redirect, cut the connection half way through a pack (a source that dies
// mid-clone), or hold a pack half way until the test lets it finish or cuts it (to look at
// a migration while its clone runs).
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GitServerOptions {
  /** Directory holding the bare repositories (`<root>/<name>.git`). */
  root: string;
  /** Requests under `/private/` need these Basic credentials. */
  credentials?: { username: string; password: string };
  /** Requests under `/redirect/` answer 302 to this URL prefix + the rest of the path. */
  redirectTo?: string;
}

export interface GitServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Every request path seen, with whether it carried an Authorization header. */
  readonly requests: Array<{ path: string; authorized: boolean }>;
  /** The next pack served under `/held/` stops after a few kilobytes until released or cut. */
  hold(): HeldPack;
  close(): Promise<void>;
}

export interface HeldPack {
  /** Resolves once the pack has stopped half way. */
  readonly reached: Promise<void>;
  /** Sends the rest of the pack. */
  release(): void;
  /** Cuts the connection: the source dies mid-clone. */
  cut(): void;
}

interface Gate {
  stopped(): void;
  opened: Promise<'release' | 'cut'>;
}

const PARTIAL_BYTES = 4096;

function serveCgi(req: IncomingMessage, res: ServerResponse, root: string, path: string, query: string, options: { dieAfterBytes?: number; takeGate?: () => Gate | undefined }): void {
  const child = spawn('git', ['http-backend'], {
    env: {
      PATH: process.env.PATH, GIT_PROJECT_ROOT: root, GIT_HTTP_EXPORT_ALL: '1', PATH_INFO: path, QUERY_STRING: query,
      REQUEST_METHOD: req.method ?? 'GET', CONTENT_TYPE: req.headers['content-type'] ?? '', REMOTE_ADDR: '127.0.0.1',
      GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', HTTP_GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
      HTTP_CONTENT_ENCODING: String(req.headers['content-encoding'] ?? ''),
    },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  req.pipe(child.stdin);
  let head = Buffer.alloc(0);
  let headersDone = false;
  let sent = 0;
  let holding = false;
  let exited = false;
  const kept: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    if (!headersDone) {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      headersDone = true;
      let status = 200;
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
        else res.setHeader(name, value);
      }
      res.writeHead(status);
      chunk = head.subarray(end + 4);
    }
    // Only a response that runs past PARTIAL_BYTES (the pack, not the ref listing) is held:
    // what follows is kept here (git may finish and exit meanwhile) until the test says.
    if (holding) {
      kept.push(chunk);
      return;
    }
    const gate = sent + chunk.length > PARTIAL_BYTES ? options.takeGate?.() : undefined;
    if (gate) {
      const first = chunk.subarray(0, Math.max(0, PARTIAL_BYTES - sent));
      res.write(first);
      sent += first.length;
      holding = true;
      kept.push(chunk.subarray(first.length));
      gate.stopped();
      void gate.opened.then((how) => {
        if (how === 'cut') {
          child.kill('SIGKILL');
          res.socket?.destroy();
          return;
        }
        holding = false;
        for (const part of kept.splice(0)) res.write(part);
        if (exited) res.end();
      });
      return;
    }
    if (options.dieAfterBytes !== undefined && sent + chunk.length > options.dieAfterBytes) {
      res.write(chunk.subarray(0, Math.max(0, options.dieAfterBytes - sent)));
      child.kill('SIGKILL');
      res.socket?.destroy();
      return;
    }
    sent += chunk.length;
    res.write(chunk);
  });
  child.on('close', () => {
    if (holding) exited = true;
    else res.end();
  });
}

export async function startGitServer(options: GitServerOptions): Promise<GitServer> {
  const requests: GitServer['requests'] = [];
  let nextGate: Gate | undefined;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push({ path: url.pathname, authorized: !!req.headers.authorization });
    let path = url.pathname;
    if (path.startsWith('/redirect/') && options.redirectTo) {
      res.writeHead(302, { location: `${options.redirectTo}${path.slice('/redirect'.length)}${url.search}` }).end();
      return;
    }
    if (path.startsWith('/private/')) {
      const expected = options.credentials ? `Basic ${Buffer.from(`${options.credentials.username}:${options.credentials.password}`).toString('base64')}` : '';
      if (req.headers.authorization !== expected) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end();
        return;
      }
      path = path.slice('/private'.length);
    }
    // `/dies/<repo>.git/...`: the pack is cut off after a few kilobytes.
    const dies = path.startsWith('/dies/');
    if (dies) path = path.slice('/dies'.length);
    // `/held/<repo>.git/...`: the pack stops half way until the test's hold() says.
    const held = path.startsWith('/held/');
    if (held) path = path.slice('/held'.length);
    const takeGate = held && path.endsWith('git-upload-pack') ? () => { const gate = nextGate; nextGate = undefined; return gate; } : undefined;
    serveCgi(req, res, options.root, path, url.search.slice(1), { dieAfterBytes: dies && path.endsWith('git-upload-pack') ? PARTIAL_BYTES : undefined, takeGate });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`, port, requests,
    hold() {
      let stopped!: () => void;
      let open!: (how: 'release' | 'cut') => void;
      const reached = new Promise<void>((resolve) => { stopped = resolve; });
      nextGate = { stopped, opened: new Promise((resolve) => { open = resolve; }) };
      return { reached, release: () => open('release'), cut: () => open('cut') };
    },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
