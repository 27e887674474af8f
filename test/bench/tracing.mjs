// BENCH_PARTS=tracing: what tracing costs. GET /api/v1/user on two systems booted the same
// way, one without OTEL_EXPORTER_OTLP_ENDPOINT (tracing off: the OpenTelemetry API is a
// no-op, as in every other part of this bench) and one exporting every span over OTLP/HTTP
// to a sink in this process, measured in alternating rounds.
import { createServer } from 'node:http';

/** A receiver that accepts OTLP exports and counts them, so the traced system pays the full export. */
export async function startOtlpSink() {
  let exports = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      exports += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    exports: () => exports,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * @param {object} o
 * @param {{ off: string, on: string }} o.urls GET /api/v1/user of each system
 * @param {{ off: string, on: string }} o.tokens
 */
export async function benchTracing({ urls, tokens, load, rounds, duration, warmup, fmt, machine, connections, sink, log }) {
  const results = { off: [], on: [] };
  for (const name of ['off', 'on']) await load(urls[name], tokens[name], warmup);
  for (let round = 1; round <= rounds; round++) {
    for (const name of ['off', 'on']) {
      await load(urls[name], tokens[name], warmup);
      const r = await load(urls[name], tokens[name], duration);
      results[name].push(r);
      log(`round ${round} tracing ${name.padEnd(3)} ${fmt(r.rps)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms`);
    }
  }
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const s = Object.fromEntries(Object.entries(results).map(([k, rs]) => [k, { rps: mean(rs.map((r) => r.rps)), p50: mean(rs.map((r) => r.p50)), p99: Math.max(...rs.map((r) => r.p99)) }]));
  console.log(`\nGET /api/v1/user with tracing off and on (every span exported over OTLP/HTTP), ${connections} connections, ${rounds} rounds of ${duration} s each`);
  console.log(`${machine()}\n`);
  console.log('| tracing | req/s | p50 ms | p99 ms | on ÷ off |');
  console.log('|---|---:|---:|---:|---:|');
  console.log(`| off (OTEL_EXPORTER_OTLP_ENDPOINT unset) | ${fmt(s.off.rps)} | ${fmt(s.off.p50, 1)} | ${fmt(s.off.p99, 1)} | — |`);
  console.log(`| on | ${fmt(s.on.rps)} | ${fmt(s.on.p50, 1)} | ${fmt(s.on.p99, 1)} | ${fmt(s.on.rps / s.off.rps, 2)} |`);
  console.log(`\n(${sink.exports()} OTLP exports received from the traced system)`);
}
