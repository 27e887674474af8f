// What other packages (the e2e harness, benchmarks) reuse from the CLI: the process
// runner, the embedded infrastructure, and small network and health helpers.
export * from './processes.js';
export * from './net.js';
export * from './health.js';
export * from './internal-token.js';
export * from './infra/embedded-postgres.js';
export * from './infra/nats.js';
