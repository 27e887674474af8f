// A round-robin TCP proxy in front of several gateways, as a Kubernetes Service (or any L4
// load balancer) puts one in front of the gateway's pods: each new client connection goes
// to the next backend; a backend that refuses the connection (its process is gone) is
// skipped for the next one, as the Service drops an endpoint whose pod has died. A
// connection already open to a backend that dies is closed under the client — the request
// in flight on it fails, which is what clients see of a killed pod.
//
// Written here rather than taken from a package: the test needs exactly this (per-connection
// round robin with skip-on-refusal, and a count of connections per backend) in 60 lines, and
// the proxies on npm are HTTP-level, which would hide what an L4 balancer does.
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** Client connections handed to each backend, by its port. */
  connectionsTo: Map<number, number>;
  close(): Promise<void>;
}

export async function startTcpProxy(backendPorts: number[]): Promise<TcpProxy> {
  let next = 0;
  const connectionsTo = new Map(backendPorts.map((port) => [port, 0]));
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };

  const server: Server = createServer((client) => {
    track(client);
    client.pause();
    const attempt = (triesLeft: number) => {
      const port = backendPorts[next++ % backendPorts.length]!;
      const backend = connect(port, '127.0.0.1');
      track(backend);
      backend.once('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'ECONNREFUSED' && triesLeft > 1 && !client.destroyed) return attempt(triesLeft - 1);
        client.destroy();
      });
      backend.once('connect', () => {
        connectionsTo.set(port, (connectionsTo.get(port) ?? 0) + 1);
        backend.removeAllListeners('error');
        backend.on('error', () => client.destroy());
        client.on('error', () => backend.destroy());
        backend.once('close', () => client.destroy());
        client.once('close', () => backend.destroy());
        client.pipe(backend).pipe(client);
        client.resume();
      });
    };
    attempt(backendPorts.length);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/`,
    connectionsTo,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
