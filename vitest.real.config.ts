import { defineConfig } from 'vitest/config';

// `npm run test:real`: the real agent CLIs (pinned in test/real/clis.json, installed outside the repo by
// scripts/install-real-clis.mjs) driven against the loopback model server, then the library end to end on what they wrote.
export default defineConfig({
  test: {
    pool: 'forks',
    include: ['test/real/**/*.real.ts'],
    // The kill-and-rerun case runs the built `mam` bin.
    globalSetup: ['./test/support/build-dist.ts'],
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 300_000,
    reporters: ["default"],
  },
});
