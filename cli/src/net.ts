// Small network helpers shared by the supervisor, the embedded infrastructure and the
// e2e harness: finding free TCP ports and waiting for something to listen.
import { createConnection, createServer, type Server } from 'node:net';

// Ports are drawn below Linux's ephemeral range (32768-60999): a port the kernel handed out
// for listening and then released is soon reused for outgoing connections (to PostgreSQL,
// NATS, between our own processes), so a service binding it a moment later may find it taken.
const PICK_FROM = 20_000;
const PICK_SPAN = 12_000;

// A port handed out is free only until someone binds it, and a service binds its port only
// once migrated, seconds later. Two things could take it in that window:
// - this process handing it out again: it remembers what it handed out recently;
// - another process drawing at the same moment: jest's parallel workers (each boots whole
//   systems) draw from disjoint stretches of the range, one per worker.
const RECENT_LIMIT = 2_048;
const recentlyHandedOut = new Set<number>();

function remember(port: number): void {
  recentlyHandedOut.add(port);
  if (recentlyHandedOut.size > RECENT_LIMIT) recentlyHandedOut.delete(recentlyHandedOut.values().next().value!);
}

const WORKER_SLOTS = 4;

/** The stretch of ports this process draws from. */
export function pickRange(workerId = process.env.JEST_WORKER_ID): { from: number; span: number } {
  const worker = Number(workerId);
  if (!Number.isInteger(worker) || worker < 1) return { from: PICK_FROM, span: PICK_SPAN };
  const span = Math.floor(PICK_SPAN / WORKER_SLOTS);
  return { from: PICK_FROM + ((worker - 1) % WORKER_SLOTS) * span, span };
}

function listenOn(port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

async function listenOnFreePort(host: string): Promise<Server> {
  const { from, span } = pickRange();
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = from + Math.floor(Math.random() * span);
    if (recentlyHandedOut.has(port)) continue;
    try {
      return await listenOn(port, host);
    } catch {
      // Taken: draw again.
    }
  }
  return listenOn(0, host);
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * `count` distinct free ports. All sockets stay open until every port is picked, so the
 * kernel cannot hand out the same port twice; this process does not hand them out again
 * soon (see above). A process outside our control may still take one before the caller
 * binds it.
 */
export async function freePorts(count: number, host = '127.0.0.1'): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) servers.push(await listenOnFreePort(host));
    const ports = servers.map((s) => (s.address() as { port: number }).port);
    ports.forEach(remember);
    return ports;
  } finally {
    await Promise.all(servers.map(close));
  }
}

export async function freePort(host = '127.0.0.1'): Promise<number> {
  const [port] = await freePorts(1, host);
  return port;
}

/** Whether something accepts TCP connections on host:port right now. */
export function isListening(port: number, host = '127.0.0.1', timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Whether a port can be bound on host (nothing else holds it). */
export async function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls `check` until it returns true, `abort` returns a reason to give up (e.g. the
 * process we wait for has died), or `timeoutMs` passes. Polling keeps callers free of
 * fixed sleeps: they continue as soon as the thing is ready.
 */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  options: { timeoutMs?: number; intervalMs?: number; abort?: () => string | undefined } = {},
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    const reason = options.abort?.();
    if (reason) throw new Error(`gave up waiting for ${what}: ${reason}`);
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${options.timeoutMs ?? 30_000} ms waiting for ${what}`);
    await sleep(options.intervalMs ?? 100);
  }
}
