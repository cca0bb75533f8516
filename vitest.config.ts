import { defineConfig } from 'vitest/config';

// `npm test`: every law of the library once (see CONTRIBUTING.md, "Test tiers"). The exhaustive runs of the same scenarios are
// `npm run test:slow` (vitest.slow.config.ts), the fuzz sizes `npm run fuzz`, the real CLIs `npm run test:real`.
//
// The tests start node processes by the hundreds (the fake herdr at every herdr call, fake agents, the `mam` bin) and
// none of them opens a TLS connection; node reads and parses NODE_EXTRA_CA_CERTS at every start (~70 ms of CPU each
// on a 2-core machine, half a plain start). The test run and its children go without it.
delete process.env['NODE_EXTRA_CA_CERTS'];

// Files that run one at a time after the rest, on an otherwise idle machine: those whose verdict bounds a real run's
// wall time (the demo's promised duration, lock waits between processes); those that read the machine's whole
// process table for a conversation of the real Hermes fixture, whose fixed ids another file's writer child (SQL on its
// command line) would name at the same time; and both demo runs, whose holder names a real fixture's fixed id on its
// command line (claude/02-after-tui), which the real-stage files' in-use checks read the whole process table for
// (demo-sigint beside claude-real-stages: "in use" where the stage says no process holds it).
const SERIAL = [
  'test/integration/demo.test.ts',
  'test/integration/demo-sigint.test.ts',
  'test/integration/lock.test.ts',
  'test/agents/hermes/integration/hermes-real.test.ts',
  'test/agents/hermes/integration/hermes-real-wal.test.ts',
  'test/integration/inspect-stores-hermes-grok.test.ts',
];

export default defineConfig({
  test: {
    pool: 'forks',
    // Three workers on a 2-core machine: most files wait on child processes, the disk and polls, and two workers left the
    // cores idle part of the time (one left a core idle). Twelve of the heaviest integration files took 97-98 s with three
    // workers against 108-115 s with two (AMD EPYC, 2 cores, other jobs running). The serial group still runs one file.
    maxWorkers: 3,
    globalSetup: ['./test/support/build-dist.ts'],
    setupFiles: ['./test/support/sqlite-uri.ts', './test/support/fast-check-seed.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        // Pure and in-memory code, contract suites, fast-check laws, docs: one module graph per worker, not per file
        // (isolate: false; the files leave no global state behind: env and cwd changes are restored).
        test: { name: 'unit', include: ['test/{unit,contract,property,docs}/**/*.test.ts', 'test/agents/**/*.test.ts'], exclude: ['test/agents/**/integration/**'], isolate: false, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        // Real temp dirs, real SQLite, real subprocesses; every file makes its own directories and children.
        test: { name: 'integration', include: ['test/integration/**/*.test.ts', 'test/agents/**/integration/**/*.test.ts'], exclude: SERIAL, isolate: false, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: { name: 'serial', include: SERIAL, fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
