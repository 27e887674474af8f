// The reference for the clone benchmark: stock `git http-backend` behind the thinnest
// possible CGI wrapper (node:http, one process, no Anvil code, no authentication).
// GIT_PROJECT_ROOT is the repository service's own storage root, so both sides serve the
// very same bare repository. Env: BENCH_PORT, BENCH_GIT_ROOT.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';

const root = process.env.BENCH_GIT_ROOT;

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://backend');
  const child = spawn('git', ['http-backend'], {
    env: {
      PATH: process.env.PATH, GIT_PROJECT_ROOT: root, GIT_HTTP_EXPORT_ALL: '1',
      REQUEST_METHOD: req.method, PATH_INFO: decodeURIComponent(url.pathname), QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '', CONTENT_LENGTH: req.headers['content-length'] ?? '',
      HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '', GIT_PROTOCOL: req.headers['git-protocol'] ?? '',
      REMOTE_ADDR: req.socket.remoteAddress ?? '', SERVER_PROTOCOL: 'HTTP/1.1', GATEWAY_INTERFACE: 'CGI/1.1',
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  req.pipe(child.stdin);
  child.stdin.on('error', () => {});
  res.on('close', () => { if (child.exitCode === null) child.kill('SIGKILL'); });
  // CGI: header lines up to a blank line, then the body, streamed as it comes.
  let head = Buffer.alloc(0);
  const onData = (chunk) => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n') >= 0 ? head.indexOf('\r\n\r\n') : head.indexOf('\n\n');
    if (end < 0) return;
    const sep = head[end] === 13 ? 4 : 2;
    let status = 200;
    const headers = {};
    for (const line of head.subarray(0, end).toString().split(/\r?\n/)) {
      const colon = line.indexOf(':');
      const key = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (key === 'status') status = Number.parseInt(value, 10);
      else headers[key] = value;
    }
    res.writeHead(status, headers);
    res.write(head.subarray(end + sep));
    child.stdout.off('data', onData);
    child.stdout.pipe(res);
  };
  child.stdout.on('data', onData);
  child.on('error', () => { if (!res.headersSent) res.writeHead(500).end(); });
  child.stdout.on('end', () => { if (!res.headersSent) res.writeHead(502).end(); });
});

server.listen(Number(process.env.BENCH_PORT), '127.0.0.1', () => process.send?.('listening'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
