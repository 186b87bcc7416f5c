import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    // Builds the `mino` command once for the tests that run it (test/support/globalSetup.ts).
    globalSetup: ['test/support/globalSetup.ts'],
    environment: 'node',
    // Generous on purpose: a timeout is not a speed assertion (benchmarks measure speed), and the
    // heaviest tests (11 MiB through an MCP server's stdio, killed CLI runs) took 23 s at a load of 12.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: keep workers few so process- and timing-sensitive tests stay honest.
    maxWorkers: 2,
    // The JSON report is what .ci/run counts; the Node 22 and Node 24 runs of scripts/withNode.mjs write their own unless told.
    reporters: ['default', ['json', { outputFile: process.env.MINO_VITEST_REPORT ?? 'test-results/vitest.json' }]],
  },
});
