// Three projects, one run: unit (*.test.ts: domain logic, fakes allowed), integration
// (*.int.test.ts: real PostgreSQL, NATS and git) and end-to-end (test/e2e: the whole
// system booted as processes, driven over HTTP). Jest runs in ESM mode because Prisma 7's
// client is ESM; swc strips types (tsc checks them in `pnpm build`).
const swc = ['@swc/jest', {
  jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
  module: { type: 'es6' },
  sourceMaps: 'inline',
}];

const common = {
  rootDir: import.meta.dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swc },
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    '^@anvil/kit$': '<rootDir>/services/kit/src/index.ts',
    '^@anvil/kit/config$': '<rootDir>/services/kit/src/config/index.ts',
    '^@anvil/kit/outbound$': '<rootDir>/services/kit/src/outbound/guard.ts',
    '^@anvil/proto$': '<rootDir>/proto/src/index.ts',
    '^@anvil/presenters/(.*)\\.js$': '<rootDir>/presenters/src/$1.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
};

export default {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/**/test/**/*.test.ts'],
      testPathIgnorePatterns: [...common.testPathIgnorePatterns, '\\.int\\.test\\.ts$', '\\.e2e\\.test\\.ts$'] },
    // 30 s per test (test/support/integration-timeout.ts says why it is set there).
    { ...common, displayName: 'integration', testMatch: ['<rootDir>/**/test/**/*.int.test.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/support/integration-timeout.ts'] },
    // globalSetup/Teardown: the systems e2e files may share per worker (test/support/shared-system.ts).
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e.test.ts'],
      globalSetup: '<rootDir>/test/support/e2e-global-setup.mjs', globalTeardown: '<rootDir>/test/support/e2e-global-teardown.mjs' },
  ],
};
