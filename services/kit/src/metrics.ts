// Prometheus metrics for every pod: process and Node runtime metrics on
// http://<ANVIL_METRICS_ADDR>/metrics when that variable is set (Kubernetes scrapes it).
import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, register } from 'prom-client';

let started = false;

export function startMetricsServer(address: string | undefined, service: string): Server | undefined {
  if (!address || started) return undefined;
  started = true;
  register.setDefaultLabels({ service });
  collectDefaultMetrics();
  const [host, port] = [address.slice(0, address.lastIndexOf(':')), Number(address.slice(address.lastIndexOf(':') + 1))];
  const server = createServer(async (req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': register.contentType }).end(await register.metrics());
  });
  server.listen(port, host || '0.0.0.0');
  return server;
}
