import { defineConfig } from 'vitest/config';

// The tests start node processes by the hundreds (the fake herdr at every herdr call, fake agents, the `mam` bin) and
// none of them opens a TLS connection; node reads and parses NODE_EXTRA_CA_CERTS at every start (~70 ms of CPU each
// on a 2-core machine, half a plain start). The test run and its children go without it.
delete process.env['NODE_EXTRA_CA_CERTS'];

export default defineConfig({
  test: {
    pool: 'forks',
    include: ['test/**/*.test.ts'],
    globalSetup: ['./test/support/build-dist.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
