// The bare hop of `pnpm bench`: the least any gateway route of this design can cost.
// express (with the gateway's settings) → one grpc-js unary call over one long-lived
// channel with a deadline → a reply that was fixed in advance, with no auth and no data.
// Run as `bare-hop.mjs` it forks its callee (`bare-hop.mjs callee`): a gRPC server whose only
// service is the standard health check, the cheapest unary call there is.
// Env: BENCH_PORT, BENCH_GRPC_PORT, BENCH_REPLY (the JSON to answer, on any path), or
// BENCH_REPLIES (a JSON object: path with its query → the JSON to answer there, so one hop
// answers each route of a table with that route's own body).
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';

// The gateway's and the kit's own copies of express, grpc-js and the health check.
const requireFromGateway = createRequire(new URL('../../gateway/package.json', import.meta.url));
const requireFromKit = createRequire(new URL('../../services/kit/package.json', import.meta.url));
const grpc = requireFromKit('@grpc/grpc-js');
const protoLoader = requireFromKit('@grpc/proto-loader');
const { HealthImplementation, protoPath } = requireFromKit('grpc-health-check');

const grpcAddress = `127.0.0.1:${process.env.BENCH_GRPC_PORT}`;

if (process.argv[2] === 'callee') {
  const server = new grpc.Server({ 'grpc.enable_channelz': 0 });
  new HealthImplementation({ '': 'SERVING' }).addToServer(server);
  server.bindAsync(grpcAddress, grpc.ServerCredentials.createInsecure(), (err) => {
    if (err) throw err;
    process.send?.('listening');
  });
  process.on('SIGTERM', () => server.tryShutdown(() => process.exit(0)));
} else {
  const callee = fork(new URL(import.meta.url).pathname, ['callee'], { stdio: 'inherit' });
  await new Promise((resolve) => callee.once('message', resolve));

  const express = requireFromGateway('express');
  const definition = protoLoader.loadSync(protoPath, { keepCase: true, longs: Number, enums: String, defaults: true });
  const { Health } = grpc.loadPackageDefinition(definition).grpc.health.v1;
  const client = new Health(grpcAddress, grpc.credentials.createInsecure(), {
    'grpc.enable_channelz': 0, 'grpc.keepalive_time_ms': 30_000, 'grpc.keepalive_permit_without_calls': 1,
  });
  const reply = process.env.BENCH_REPLY ? JSON.parse(process.env.BENCH_REPLY) : undefined;
  const replies = new Map(Object.entries(process.env.BENCH_REPLIES ? JSON.parse(process.env.BENCH_REPLIES) : {}));

  const app = express();
  app.set('etag', false);
  app.set('x-powered-by', false);
  // Every path answers the same fixed reply (or its own, from BENCH_REPLIES), so one hop
  // serves any route's comparison.
  app.use((req, res) => {
    client.Check({ service: '' }, { deadline: Date.now() + 10_000 }, (err) => {
      if (err) return res.status(500).json({ message: err.message, url: '' });
      res.json(replies.get(req.originalUrl) ?? reply);
    });
  });
  const server = app.listen(Number(process.env.BENCH_PORT), '127.0.0.1', () => process.send?.('listening'));
  process.on('SIGTERM', () => {
    callee.kill('SIGTERM');
    client.close();
    server.close(() => process.exit(0));
  });
}
