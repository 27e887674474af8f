// The integration project's per-test time limit. Jest reads `testTimeout` only from the
// top-level config, not from a project's, so the project sets it here (setupFilesAfterEnv).
// Dropping a test database or 50 concurrent writers can take seconds on a busy 2-core
// machine: a hang guard, not a speed check.
import { jest } from '@jest/globals';

jest.setTimeout(30_000);
