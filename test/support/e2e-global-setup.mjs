// The e2e project's globalSetup: names this run, so the systems its workers share
// (shared-system.ts) can be found and removed by e2e-global-teardown.mjs. Workers start
// after this and inherit the environment. Plain JavaScript: jest loads it untransformed.
import { randomBytes } from 'node:crypto';

export default function setup() {
  process.env.ANVIL_E2E_RUN = randomBytes(4).toString('hex');
}
