// Free TCP ports for the e2e harness and for suites that run their own listeners (a
// webhook receiver, a fake remote for mirrors). The implementation is the CLI's, which
// picks ports the same way for its embedded NATS and PostgreSQL.
export { freePort, freePorts, isListening } from '../../cli/src/net.js';
