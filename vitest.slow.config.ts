import { defineConfig } from 'vitest/config';

// `npm run test:slow`: the exhaustive sizes of scenarios `npm test` proves once (SIGKILL cycles at random instants,
// fault sweeps at every step, large property runs). A file here either holds its own sweep or imports the npm test file
// it enlarges; MAM_TEST_TIER=slow (test/helpers/tier.ts) picks the sizes.
delete process.env['NODE_EXTRA_CA_CERTS'];

export default defineConfig({
  test: {
    name: 'slow',
    pool: 'forks',
    maxWorkers: 2,
    env: { MAM_TEST_TIER: 'slow' },
    include: ['test/slow/**/*.test.ts'],
    globalSetup: ['./test/support/build-dist.ts'],
    setupFiles: ['./test/support/sqlite-uri.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
